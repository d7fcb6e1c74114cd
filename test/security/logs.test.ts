import { makeDataDir } from '../support/data-dir';
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { type App, createApp } from '../../src/server/app';
import { createTestDatabase } from '../support/app';
import { Client } from '../support/http';
import { learnerSignup, PASSWORD, signupInput } from '../support/users';

/** Every line the service logs, at the most talkative level. */
const lines: string[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let app: App;
let http: Client;
let dataDir: string;
beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  // The database refuses this domain, so that sign-up's insert fails as a statement can in production.
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  await pg.query(`alter table users add constraint test_refuses_domain check (email not like '%@refused.example')`);
  await pg.end();
  dataDir = makeDataDir('lp-logs-');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    LOG_LEVEL: 'trace',
  });
  app = await createApp(config, createLogger('trace', capture));
  const address = await app.listen(0, '127.0.0.1');
  http = new Client(`http://127.0.0.1:${address.port}`);
});
afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('logs', () => {
  it('a failed sign-up statement is logged without its parameters or personal fields', async () => {
    // A German learner: the refusing constraint is on the test's own database, global's, where their account goes.
    const body = learnerSignup('2011-04-17', {
      email: 'secret-person@refused.example',
      displayName: 'Zebulon Quux',
      country: 'DE',
    });
    const rest = await http.post('/auth/signup', body);
    expect(rest.status).toBe(500);
    const gql = await http.gql('mutation($input: SignupInput!) { signup(input: $input) { accessToken } }', {
      input: signupInput(body),
    });
    expect(gql.body.errors?.[0].extensions.code).toBe('INTERNAL_ERROR');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const failures = lines.filter((line) => /request failed|graphql operation failed/.test(line));
    expect(failures.length).toBeGreaterThan(0);
    // The failure is still useful: what kind, which table and constraint.
    expect(failures.some((line) => line.includes('"code":"23514"') && line.includes('test_refuses_domain'))).toBe(true);
    // No stack trace in any log line: no frames, no library's or node's files.
    expect(lines.join('\n')).not.toMatch(/"stack"|\bat .+\.(ts|js):\d+|node_modules|node:internal/);
    const all = lines.join('\n');
    for (const secret of [
      'secret-person',
      '2011-04-17',
      'Zebulon',
      PASSWORD,
      '$argon2',
      'insert into',
      'Failing row',
    ]) {
      expect(all, `the log holds ${secret}`).not.toContain(secret);
    }
  });

  it("logs an error with where it was thrown in the service's own code, never its stack trace", () => {
    const own: string[] = [];
    const log = createLogger(
      'info',
      new Writable({ write: (chunk, _e, done) => void (own.push(String(chunk)), done()) }),
    );
    const failure = new TypeError('a thing went wrong', { cause: new RangeError('underneath') });
    log.error({ err: failure }, 'something failed');
    const { err } = JSON.parse(own.join('')) as { err: Record<string, unknown> };
    expect(err).toEqual({
      type: 'TypeError',
      message: 'a thing went wrong',
      where: expect.stringMatching(/^test\/security\/logs\.test\.ts:\d+:\d+$/),
      cause: {
        type: 'RangeError',
        message: 'underneath',
        where: expect.stringMatching(/^test\/security\/logs\.test\.ts:/),
      },
    });
  });

  it('redacts personal fields and credentials wherever they are in a logged object', () => {
    const own: string[] = [];
    const log = createLogger(
      'info',
      new Writable({ write: (chunk, _e, done) => void (own.push(String(chunk)), done()) }),
    );
    log.info(
      {
        email: 'a@example.com',
        user: { email: 'b@example.com', birthDate: '2010-01-01', password: 'pw-1' },
        input: { learner: { guardianEmail: 'c@example.com', token: 'tok-1' } },
        req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1' } },
      },
      'something happened',
    );
    const text = own.join('');
    for (const secret of [
      'a@example.com',
      'b@example.com',
      '2010-01-01',
      'pw-1',
      'c@example.com',
      'tok-1',
      'Bearer abc',
      'sid=1',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});
