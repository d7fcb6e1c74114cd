import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import { adultSignup, signUpVerified } from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

describe('smoke', () => {
  it('signs up and verifies', async () => {
    const account = await signUpVerified(t, smtp, adultSignup());
    expect(account.user.emailVerified).toBe(true);
    const me = await t.http.get('/auth/me', { token: account.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(account.email);
  });
});
