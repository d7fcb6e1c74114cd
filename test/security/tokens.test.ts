import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { signInAdmin, signUp, type SignedIn } from '../support/users';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const ctx = withMailAndApp();
let t: TestApp;
let learner: SignedIn;
let admin: SignedIn;
beforeAll(async () => {
  ({ t } = ctx);
  learner = await signUp(t);
  admin = await signInAdmin(t);
});

/** A token signed with the real secret, issuer and audience, with whatever claims a forger picks. */
function forge(payload: Record<string, unknown>, withExp = true): string {
  const now = Math.floor(Date.now() / 1000);
  return jwt.sign(
    {
      iss: 'learning-platform-api',
      aud: 'learning-platform',
      iat: now,
      ...(withExp ? { exp: now + 600 } : {}),
      ...payload,
    },
    SECRET,
    { algorithm: 'HS256' },
  );
}

describe('access tokens', () => {
  it('a well-formed forged-by-us token still works (control)', async () => {
    const reply = await t.http.get('/auth/me', { token: forge({ sub: admin.id, roles: ['admin'] }) });
    expect(reply.status).toBe(200);
    expect(reply.body.user.id).toBe(admin.id);
  });

  it('refuses a token without exp', async () => {
    const reply = await t.http.get('/auth/me', { token: forge({ sub: learner.id, roles: ['guardian'] }, false) });
    expect(reply.status).toBe(401);
    expect(reply.body.error).toBe('unauthenticated');
  });

  it('refuses a sub that is an array (it named the admin before)', async () => {
    const token = forge({ sub: [learner.id, admin.id], roles: ['guardian'] });
    const rest = await t.http.get('/auth/me', { token });
    expect(rest.status).toBe(401);
    const gql = await t.http.gql('{ me { id } }', undefined, token);
    expect(gql.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it.each([['not-a-uuid'], [''], ['12345'], [`${'a'.repeat(8)}-aaaa-aaaa-aaaa-${'a'.repeat(11)}`]])(
    'answers 401 for sub %j',
    async (sub) => {
      const reply = await t.http.get('/auth/me', { token: forge({ sub, roles: [] }) });
      expect(reply.status).toBe(401);
      expect(reply.body.error).toBe('unauthenticated');
    },
  );

  it('refuses roles that are not a list of strings', async () => {
    const reply = await t.http.get('/auth/me', { token: forge({ sub: learner.id, roles: 'admin' }) });
    expect(reply.status).toBe(401);
  });
});
