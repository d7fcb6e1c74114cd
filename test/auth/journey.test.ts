import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { type SmtpServer, tokenFrom } from '../support/smtp';
import { adultSignup, PASSWORD, signupInput } from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const NEW_PASSWORD = 'another long passphrase';
const USER = 'id email emailVerified displayName roles birthDate country region locale tier status createdAt';
const SESSION = `user { ${USER} } accessToken refreshToken expiresIn`;

describe('the account journey over REST', () => {
  it('signs up, verifies from the mail, logs in, refreshes, logs out, resets the password', async () => {
    const body = adultSignup({ email: 'Lan.Nguyen+REST@Example.com' });
    const email = 'lan.nguyen+rest@example.com';
    const signup = await t.http.post('/auth/signup', body);
    expect(signup.status).toBe(201);
    expect(signup.body.user).toMatchObject({
      email,
      emailVerified: false,
      roles: ['guardian'],
      country: 'VN',
      locale: 'en',
      tier: 'free',
      status: 'active',
    });
    expect(Object.keys(signup.body.user).sort()).toEqual(USER.split(' ').sort());
    expect(signup.body.expiresIn).toBeGreaterThan(0);

    const mail = await smtp.waitFor(email, /confirm/i);
    const verified = await t.http.post('/auth/verify-email', { token: tokenFrom(mail) });
    expect(verified.status).toBe(200);
    expect(verified.body.user.emailVerified).toBe(true);
    const reused = await t.http.post('/auth/verify-email', { token: tokenFrom(mail) });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('validation_failed');

    const login = await t.http.post('/auth/login', { email: body.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const me = await t.http.get('/auth/me', { token: login.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email, emailVerified: true });

    const refreshed = await t.http.post('/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refreshToken).not.toBe(login.body.refreshToken);
    const stale = await t.http.post('/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(stale.status).toBe(401);
    expect(stale.body.error).toBe('unauthenticated');
    // Reusing the old token ended the whole family: the newest token is refused too.
    const family = await t.http.post('/auth/refresh', { refreshToken: refreshed.body.refreshToken });
    expect(family.status).toBe(401);

    const second = await t.http.post('/auth/login', { email, password: PASSWORD });
    const logout = await t.http.post('/auth/logout', { refreshToken: second.body.refreshToken });
    expect(logout.status).toBe(204);
    expect((await t.http.post('/auth/refresh', { refreshToken: second.body.refreshToken })).status).toBe(401);

    const third = await t.http.post('/auth/login', { email, password: PASSWORD });
    const forgot = await t.http.post('/auth/forgot-password', { email });
    expect(forgot.status).toBe(202);
    expect(forgot.body).toEqual({ accepted: true });
    const resetMail = await smtp.waitFor(email, /reset/i);
    const reset = await t.http.post('/auth/reset-password', { token: tokenFrom(resetMail), password: NEW_PASSWORD });
    expect(reset.status).toBe(204);
    expect((await t.http.post('/auth/refresh', { refreshToken: third.body.refreshToken })).status).toBe(401);
    expect((await t.http.post('/auth/login', { email, password: PASSWORD })).status).toBe(401);
    expect((await t.http.post('/auth/login', { email, password: NEW_PASSWORD })).status).toBe(200);
    const again = await t.http.post('/auth/reset-password', {
      token: tokenFrom(resetMail),
      password: 'yet another passphrase',
    });
    expect(again.status).toBe(400);
  });

  it('answers forgot-password the same for an unknown address and sends nothing', async () => {
    const reply = await t.http.post('/auth/forgot-password', { email: 'nobody-here@example.com' });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ accepted: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('resends the verification mail, and a new token works', async () => {
    const body = adultSignup();
    await t.http.post('/auth/signup', body);
    const resend = await t.http.post('/auth/resend-verification', { email: body.email });
    expect(resend.status).toBe(202);
    await expect.poll(() => smtp.received.filter((m) => m.to.includes(body.email)).length).toBe(2);
    const last = smtp.received.filter((m) => m.to.includes(body.email)).at(-1)!;
    const verified = await t.http.post('/auth/verify-email', { token: tokenFrom(last) });
    expect(verified.status).toBe(200);
  });

  it('writes mail in the Vietnamese locale', async () => {
    const body = adultSignup({ locale: 'vi' });
    await t.http.post('/auth/signup', body);
    const mail = await smtp.waitFor(body.email, /xác nhận/i);
    expect(mail.text).toMatch(/Xin chào|xác nhận/i);
  });

  it('refuses a duplicate e-mail with 409 conflict', async () => {
    const body = adultSignup();
    expect((await t.http.post('/auth/signup', body)).status).toBe(201);
    const twice = await t.http.post('/auth/signup', { ...body, email: body.email.toUpperCase() });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('conflict');
  });

  it('puts a learner under 13 on pending_guardian and invites the guardian', async () => {
    const guardianEmail = `parent-${Date.now()}@example.com`;
    const birthDate = `${new Date().getUTCFullYear() - 10}-01-15`;
    const reply = await t.http.post('/auth/signup', adultSignup({ role: 'learner', birthDate, guardianEmail }));
    expect(reply.status).toBe(201);
    expect(reply.body.user.status).toBe('pending_guardian');
    const invitation = await smtp.waitFor(guardianEmail);
    expect(invitation.text).toContain('Lan Nguyen');
  });
});

describe('the account journey over GraphQL', () => {
  it('signs up, verifies, logs in, refreshes, detects reuse, logs out and resets', async () => {
    const body = adultSignup();
    const signup = await t.http.gql(`mutation($input: SignupInput!) { signup(input: $input) { ${SESSION} } }`, {
      input: signupInput(body),
    });
    expect(signup.body.errors).toBeUndefined();
    expect(signup.body.data.signup.user.email).toBe(body.email);

    const mail = await smtp.waitFor(body.email, /confirm/i);
    const verify = await t.http.gql(`mutation($input: TokenInput!) { verifyEmail(input: $input) { emailVerified } }`, {
      input: { token: tokenFrom(mail) },
    });
    expect(verify.body.data.verifyEmail.emailVerified).toBe(true);

    const login = await t.http.gql(`mutation($input: LoginInput!) { login(input: $input) { ${SESSION} } }`, {
      input: { email: body.email, password: PASSWORD },
    });
    const session = login.body.data.login;
    const me = await t.http.gql('{ me { id email emailVerified } }', {}, session.accessToken);
    expect(me.body.data.me).toEqual({ id: session.user.id, email: body.email, emailVerified: true });

    const refresh = `mutation($input: RefreshTokenInput!) { refreshSession(input: $input) { refreshToken } }`;
    const next = await t.http.gql(refresh, { input: { refreshToken: session.refreshToken } });
    expect(next.body.data.refreshSession.refreshToken).toBeTruthy();
    const reuse = await t.http.gql(refresh, { input: { refreshToken: session.refreshToken } });
    expect(reuse.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    const family = await t.http.gql(refresh, { input: { refreshToken: next.body.data.refreshSession.refreshToken } });
    expect(family.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');

    const other = await t.http.gql(`mutation($input: LoginInput!) { login(input: $input) { refreshToken } }`, {
      input: { email: body.email, password: PASSWORD },
    });
    const logout = await t.http.gql(`mutation($input: RefreshTokenInput!) { logout(input: $input) }`, {
      input: { refreshToken: other.body.data.login.refreshToken },
    });
    expect(logout.body.data.logout).toBe(true);

    const forgot = await t.http.gql(`mutation($input: EmailInput!) { forgotPassword(input: $input) }`, {
      input: { email: body.email },
    });
    expect(forgot.body.data.forgotPassword).toBe(true);
    const resetMail = await smtp.waitFor(body.email, /reset/i);
    const reset = await t.http.gql(`mutation($input: ResetPasswordInput!) { resetPassword(input: $input) }`, {
      input: { token: tokenFrom(resetMail), password: NEW_PASSWORD },
    });
    expect(reset.body.data.resetPassword).toBe(true);
    const oldPassword = await t.http.gql(`mutation($input: LoginInput!) { login(input: $input) { accessToken } }`, {
      input: { email: body.email, password: PASSWORD },
    });
    expect(oldPassword.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
