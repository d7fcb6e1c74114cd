import { beforeAll, describe, expect, it } from 'vitest';
import jwt from 'jsonwebtoken';
import type { TestApp } from '../support/app';
import { accountDirectoryOf } from '../../src/auth/account-directory';
import { ownerOf } from '../support/regions';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import { tokenFrom } from '../support/smtp';
import { asOwner } from '../support/sql';
import { adultSignup, PASSWORD, signUp, uniqueEmail } from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const rowsIn = (region: string, text: string, params: unknown[]) =>
  asOwner(ownerOf(t, region), text, params) as Promise<Record<string, unknown>[]>;

describe('where an account lives', () => {
  it("keeps a Vietnamese account's row in vn's database only, and its id and region (no address) in global's directory", async () => {
    const vn = await signUp(t, adultSignup({ country: 'VN' }));
    expect(await rowsIn('vn', 'select email, region from users where id = $1', [vn.id])).toEqual([
      { email: vn.email, region: 'vn' },
    ]);
    expect(await rowsIn('global', 'select 1 from users where id = $1 or email = $2', [vn.id, vn.email])).toEqual([]);
    const [entry] = await rowsIn('global', 'select * from account_regions where id = $1', [vn.id]);
    expect(entry).toMatchObject({ id: vn.id, region: 'vn' });
    expect(JSON.stringify(entry)).not.toContain(vn.email);
    expect(JSON.stringify(entry)).not.toContain(vn.email.split('@')[0]);
  });

  it('signs the home region into the access token, and refuses a token naming a region this service does not serve', async () => {
    const vn = await signUp(t, adultSignup({ country: 'VN' }));
    const de = await signUp(t, adultSignup({ country: 'DE' }));
    expect(jwt.decode(vn.accessToken)).toMatchObject({ sub: vn.id, region: 'vn' });
    expect(jwt.decode(de.accessToken)).toMatchObject({ sub: de.id, region: 'global' });
    const { config } = t.app.deps;
    const elsewhere = jwt.sign({ roles: ['guardian'], region: 'mars' }, config.JWT_SECRET, {
      subject: vn.id,
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      expiresIn: 60,
    });
    const refused = await t.http.get('/auth/me', { token: elsewhere });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('unauthenticated');
    expect((await t.http.get('/auth/me', { token: vn.accessToken })).body.user).toMatchObject({ id: vn.id });
  });

  it('gives one address one account across every region, whichever signs up first', async () => {
    const email = uniqueEmail();
    await signUp(t, adultSignup({ email, country: 'DE' }));
    const twice = await t.http.post('/auth/signup', adultSignup({ email, country: 'VN' }));
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: 'conflict', reason: 'email_taken' });
    expect(await rowsIn('vn', 'select 1 from users where email = $1', [email])).toEqual([]);

    const other = uniqueEmail();
    await signUp(t, adultSignup({ email: other, country: 'VN' }));
    const again = await t.http.post('/auth/signup', adultSignup({ email: other, country: 'DE' }));
    expect(again.status).toBe(409);
    expect(await rowsIn('global', 'select 1 from users where email = $1', [other])).toEqual([]);
  });

  it('takes over a claim whose account was never made (its instance died) once its minute has passed, not before', async () => {
    const stale = uniqueEmail();
    const fresh = uniqueEmail();
    const key = (email: string) => accountDirectoryOf(t.app.deps).addressKey(email);
    // What a sign-up leaves when its instance dies between its claim and its account's commit.
    await rowsIn(
      'global',
      `insert into account_regions (id, region, address_key, created_at) values (gen_random_uuid(), 'vn', $1, now() - interval '2 minutes'), (gen_random_uuid(), 'vn', $2, now())`,
      [key(stale), key(fresh)],
    );
    const signedUp = await t.http.post('/auth/signup', adultSignup({ email: stale, country: 'VN' }));
    expect(signedUp.status).toBe(201);
    expect(await rowsIn('global', 'select id from account_regions where address_key = $1', [key(stale)])).toEqual([
      { id: signedUp.body.user.id },
    ]);
    const underWay = await t.http.post('/auth/signup', adultSignup({ email: fresh, country: 'VN' }));
    expect(underWay.status).toBe(409);
  });

  it('logs a Vietnamese account in, refreshes its session and follows its mailed links, all in vn', async () => {
    const vn = await signUp(t, adultSignup({ country: 'VN' }));
    const login = await t.http.post('/auth/login', { email: vn.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(jwt.decode(login.body.accessToken)).toMatchObject({ region: 'vn' });
    const refreshed = await t.http.post('/auth/refresh', { refreshToken: login.body.refreshToken });
    expect(refreshed.status).toBe(200);
    const verified = await t.http.post('/auth/verify-email', {
      token: tokenFrom(await smtp.waitFor(vn.email, /confirm|xác nhận/i)),
    });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ id: vn.id, emailVerified: true });
    expect((await t.http.post('/auth/forgot-password', { email: vn.email })).status).toBe(202);
    const reset = await t.http.post('/auth/reset-password', {
      token: tokenFrom(await smtp.waitFor(vn.email, /reset|đặt lại/i)),
      password: 'another long passphrase',
    });
    expect(reset.status).toBe(204);
    expect((await t.http.post('/auth/login', { email: vn.email, password: 'another long passphrase' })).status).toBe(
      200,
    );
    const wrong = await t.http.post('/auth/login', { email: vn.email, password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(await rowsIn('global', 'select 1 from refresh_tokens where user_id = $1', [vn.id])).toEqual([]);
    expect(
      await rowsIn('global', "select 1 from outbox where payload::text like '%' || $1 || '%'", [vn.email]),
    ).toEqual([]);
  });
});
