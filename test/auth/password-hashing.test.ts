import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, PRODUCTION_HASH_MEMORY_KIB } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';
import { ownerOfAccount } from '../support/regions';
import { asOwner } from '../support/sql';
import { adultSignup, signUp } from '../support/users';

/**
 * The test apps hash with 1 MiB (test/support/app.ts) to sign up thousands in reasonable time; a
 * service hashes with OWASP's Argon2id floor, and no setting lowers it outside NODE_ENV=test.
 */
const env = { DATABASE_URL: 'postgres://unused/unused', JWT_SECRET: 'a-secret-that-is-long-enough-for-hs256-signing' };

describe('password hashing cost', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PASSWORD_HASH_MEMORY_KIB: undefined });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is Argon2id with 19 MiB and two passes unless set', async () => {
    expect(PRODUCTION_HASH_MEMORY_KIB).toBe(19_456);
    expect(loadConfig(env).PASSWORD_HASH_MEMORY_KIB).toBe(19_456);
    const account = await signUp(t, adultSignup());
    const [row] = (await asOwner(await ownerOfAccount(t, account.id), 'select password_hash from users where id = $1', [
      account.id,
    ])) as {
      password_hash: string;
    }[];
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await t.http.post('/auth/login', { email: account.email, password: adultSignup().password })).status).toBe(
      200,
    );
  });

  it('is refused below that outside NODE_ENV=test', () => {
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => loadConfig({ ...env, NODE_ENV, PASSWORD_HASH_MEMORY_KIB: '1024' }), NODE_ENV).toThrow(
        'Invalid configuration: PASSWORD_HASH_MEMORY_KIB must be at least 19456 outside NODE_ENV=test',
      );
    }
    expect(
      loadConfig({ ...env, NODE_ENV: 'production', PASSWORD_HASH_MEMORY_KIB: '65536' }).PASSWORD_HASH_MEMORY_KIB,
    ).toBe(65_536);
    expect(loadConfig({ ...env, NODE_ENV: 'test', PASSWORD_HASH_MEMORY_KIB: '1024' }).PASSWORD_HASH_MEMORY_KIB).toBe(
      1024,
    );
  });
});
