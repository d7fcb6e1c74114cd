import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { startSmtpServer, type SmtpServer } from '../support/smtp';
import { adultSignup, signUpVerified } from '../support/users';

let t: TestApp;
let smtp: SmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('smoke', () => {
  it('signs up and verifies', async () => {
    const account = await signUpVerified(t, smtp, adultSignup());
    expect(account.user.emailVerified).toBe(true);
    const me = await t.http.get('/auth/me', { token: account.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(account.email);
  });
});
