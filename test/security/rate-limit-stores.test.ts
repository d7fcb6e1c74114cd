import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createRateLimits } from '../../src/kernel/rate-limit';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { freePort } from '../support/ports';
import { adultSignup, PASSWORD, signUp } from '../support/users';

/**
 * The limits of docs/conventions.md#rate-limits hold across instances (PostgreSQL by default, Redis
 * with REDIS_URL), and log-in failures are counted before a password is verified.
 */
const started: TestApp[] = [];
afterAll(async () => {
  for (const app of started.reverse()) await app.close();
});

async function start(env: Record<string, string>, databaseUrl?: string): Promise<TestApp> {
  const app = await startTestApp(env, databaseUrl);
  started.push(app);
  return app;
}

/**
 * `total` anonymous requests from one address, spread over the instances, a few at a time. Each
 * asks for a path that names nothing (404): the limit counts every request, and the answer owes
 * nothing to the database (a health check may fairly answer 503 on a machine too busy).
 */
async function spread(apps: TestApp[], total: number): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < total; i += 20) {
    replies.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(20, total - i) }, (_, j) => apps[(i + j) % apps.length].http.get('/nowhere')),
      )),
    );
  }
  return replies;
}

async function counterKeys(app: TestApp): Promise<string[]> {
  const client = new Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ key: string }>('select key from rate_limits')).rows.map((row) => row.key);
  } finally {
    await client.end();
  }
}

const statuses = (replies: Reply[]) =>
  replies.reduce<Record<number, number>>((n, r) => ({ ...n, [r.status]: (n[r.status] ?? 0) + 1 }), {});

describe('rate limits shared through the database (the default)', () => {
  it(
    'two instances on one database find one limit: 300 requests a window across both',
    { timeout: 60_000 },
    async () => {
      const first = await start({ RATE_LIMIT_DEFAULT: '300' });
      const second = await start({ RATE_LIMIT_DEFAULT: '300' }, first.databaseUrl);
      expect([first.app.deps.limits.store, second.app.deps.limits.store]).toEqual(['postgres', 'postgres']);
      const replies = await spread([first, second], 400);
      expect(statuses(replies)).toEqual({ 404: 300, 429: 100 });
      // Each instance let some through and refused some: neither kept a count of its own.
      for (const app of [first, second]) {
        const own = (await Promise.all([app.http.get('/health'), app.http.get('/health')])).map((r) => r.status);
        expect(own).toEqual([429, 429]);
      }
      const refused = replies.find((r) => r.status === 429)!;
      expect(refused.body).toEqual({
        error: 'rate_limited',
        message: expect.any(String),
        retryAfter: expect.any(Number),
      });
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    },
  );

  it('without a database or Redis the limits are one process’s, in memory', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: tmpdir(),
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    });
    expect(createRateLimits(config).store).toBe('memory');
  });
});

describe('log-in failures', () => {
  it(
    'verifies at most RATE_LIMIT_LOGIN_FAILURES of 28 concurrent wrong passwords, the others 429',
    { timeout: 60_000 },
    async () => {
      const app = await start({ RATE_LIMIT_LOGIN_FAILURES: '10' });
      const account = await signUp(app, adultSignup());
      const replies = await Promise.all(
        Array.from({ length: 28 }, () =>
          app.http.post('/auth/login', { email: account.email, password: 'a wrong password, guessed' }),
        ),
      );
      // A 401 is a password that was verified; a 429 was refused before.
      expect(statuses(replies)).toEqual({ 401: 10, 429: 18 });
      expect((await app.http.post('/auth/login', { email: account.email, password: PASSWORD })).status).toBe(429);
      // The shared table holds digests, not the e-mail address, the user id or the IP.
      const keys = await counterKeys(app);
      expect(keys.length).toBeGreaterThan(0);
      expect(
        keys.filter((k) => [account.email, account.id, '127.0.0.1'].some((personal) => k.includes(personal))),
      ).toEqual([]);
    },
  );

  it(
    'gives a successful log-in its point back: the per-IP failure limit counts only failures',
    { timeout: 60_000 },
    async () => {
      const app = await start({ RATE_LIMIT_LOGIN_FAILURES_IP: '3' });
      const accounts = await Promise.all(Array.from({ length: 5 }, () => signUp(app, adultSignup())));
      for (const account of accounts)
        expect((await app.http.post('/auth/login', { email: account.email, password: PASSWORD })).status).toBe(200);
      const failures = [];
      for (const account of accounts.slice(0, 4))
        failures.push((await app.http.post('/auth/login', { email: account.email, password: 'wrong guess' })).status);
      expect(failures).toEqual([401, 401, 401, 429]);
    },
  );
});

/** Debian's redis-server (.ci/run installs it); the Redis tests are skipped where it is missing. */
const redisBinary = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();

async function startRedis(): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'lp-redis-'));
  const child: ChildProcess = spawn(
    redisBinary!,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!redisBinary)('rate limits shared through Redis (REDIS_URL)', () => {
  it('two instances on different databases and one Redis find one limit', { timeout: 60_000 }, async () => {
    const redis = await startRedis();
    try {
      const first = await start({ RATE_LIMIT_DEFAULT: '50', REDIS_URL: redis.url });
      const second = await start({ RATE_LIMIT_DEFAULT: '50', REDIS_URL: redis.url });
      expect(first.databaseUrl).not.toBe(second.databaseUrl);
      expect([first.app.deps.limits.store, second.app.deps.limits.store]).toEqual(['redis', 'redis']);
      expect(statuses(await spread([first, second], 80))).toEqual({ 404: 50, 429: 30 });
    } finally {
      for (const app of started.splice(0)) await app.close();
      redis.stop();
    }
  });
});
