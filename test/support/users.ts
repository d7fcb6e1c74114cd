import { randomUUID } from 'node:crypto';
import { openUnit } from '../../src/server/platform';
import type { SmtpServer } from './smtp';
import { tokenFrom } from './smtp';
import type { TestApp } from './app';

export const PASSWORD = 'a long enough passphrase';

export interface SignedIn {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  user: Record<string, any>;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

export function adultSignup(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(),
    password: PASSWORD,
    displayName: 'Lan Nguyen',
    role: 'guardian',
    country: 'VN',
    locale: 'en',
    ...overrides,
  };
}

/** A sign-up body as GraphQL's SignupInput takes it: the same, with its enums named in ALL_CAPS (`GUARDIAN`, `EN`). */
export function signupInput(body: Record<string, unknown>): Record<string, unknown> {
  const named = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);
  return { ...body, role: named(body.role), locale: named(body.locale) };
}

export function learnerSignup(birthDate: string, overrides: Record<string, unknown> = {}) {
  return adultSignup({ role: 'learner', birthDate, ...overrides });
}

/** Signs up through REST, as a person would. */
export async function signUp(
  t: Pick<TestApp, 'http'>,
  body: Record<string, unknown> = adultSignup(),
): Promise<SignedIn> {
  const reply = await t.http.post('/auth/signup', body);
  if (reply.status !== 201) throw new Error(`sign-up failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return {
    id: reply.body.user.id,
    email: reply.body.user.email,
    accessToken: reply.body.accessToken,
    refreshToken: reply.body.refreshToken,
    user: reply.body.user,
  };
}

/** Signs up and follows the verification mail the SMTP server received. */
export async function signUpVerified(
  t: TestApp,
  smtp: SmtpServer,
  body: Record<string, unknown> = adultSignup(),
): Promise<SignedIn> {
  const account = await signUp(t, body);
  const mail = await smtp.waitFor(account.email, /confirm|xác nhận/i);
  const reply = await t.http.post('/auth/verify-email', { token: tokenFrom(mail) });
  if (reply.status !== 200) throw new Error(`verification failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { ...account, user: reply.body.user };
}

/** An admin made the way `npm run admin:create` makes one, then signed in through REST. */
export async function signInAdmin(t: TestApp): Promise<SignedIn> {
  const email = uniqueEmail('admin');
  await openUnit(t.app.deps).services.admin.ensureAdmin(email, PASSWORD);
  const reply = await t.http.post('/auth/login', { email, password: PASSWORD });
  if (reply.status !== 200) throw new Error(`the admin's log-in failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return {
    id: reply.body.user.id,
    email,
    accessToken: reply.body.accessToken,
    refreshToken: reply.body.refreshToken,
    user: reply.body.user,
  };
}

/** A birth date that makes a person exactly `years` old today. */
export function bornYearsAgo(years: number): string {
  const today = new Date();
  const date = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  return date.toISOString().slice(0, 10);
}

/** A verified guardian, signed in. */
export function verifiedGuardian(
  t: TestApp,
  smtp: SmtpServer,
  overrides: Record<string, unknown> = {},
): Promise<SignedIn> {
  return signUpVerified(t, smtp, adultSignup({ role: 'guardian', email: uniqueEmail('guardian'), ...overrides }));
}

/** A learner of the given age who followed the verification mail: only such an account approves a guardian's link. */
export function verifiedLearnerOfAge(
  t: TestApp,
  smtp: SmtpServer,
  years: number,
  overrides: Record<string, unknown> = {},
): Promise<SignedIn> {
  const guardianEmail = years < 13 ? { guardianEmail: uniqueEmail('parent') } : {};
  return signUpVerified(
    t,
    smtp,
    learnerSignup(bornYearsAgo(years), { email: uniqueEmail('learner'), ...guardianEmail, ...overrides }),
  );
}

/** A learner of the given age; under 13 they name `guardianEmail` (a fresh address unless given). */
export function learnerOfAge(
  t: Pick<TestApp, 'http'>,
  years: number,
  overrides: Record<string, unknown> = {},
): Promise<SignedIn> {
  const guardianEmail = years < 13 ? { guardianEmail: uniqueEmail('parent') } : {};
  return signUp(
    t,
    learnerSignup(bornYearsAgo(years), { email: uniqueEmail('learner'), ...guardianEmail, ...overrides }),
  );
}
