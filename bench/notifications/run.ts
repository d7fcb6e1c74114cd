import 'reflect-metadata';
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { Pool } from 'pg';
import { signAccessToken } from '../../src/kernel/tokens';
import { loadConfig } from '../../src/config';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { createLogger } from '../../src/logger';
import { NotificationType } from '../../src/notifications/notification.entity';
import { createApp } from '../../src/server/app';
import { openUnit } from '../../src/server/platform';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const USER_ROWS = Number(process.env.BENCH_USER_ROWS ?? 100_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 5000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';

/**
 * Unread count and list for a user with 100,000 notifications in a table of 1,000,000, against
 * a one-row primary-key read (GET /auth/me) as the baseline in the same run; then the fan-out of one
 * event to each of 5,000 open subscriptions on one instance, produced on another instance.
 */
async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lp-bench-'));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(dataDir, 54400 + Math.floor(Math.random() * 500));
  const env = { DATABASE_URL: process.env.DATABASE_URL ?? embedded!.url(), JWT_SECRET };
  const config = loadConfig({ ...process.env, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  // The producing instance; the measured one runs in a child process.
  const producer = await createApp(config, createLogger('silent'));
  const child = fork(join(__dirname, 'server.js'), { env: { ...process.env, ...env }, execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(message?: string) =>
    new Promise<T>((resolve) => {
      child.once('message', resolve as never);
      if (message) child.send(message);
    });
  const { url } = await ask<{ url: string }>();
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });

  const users = await seedUsers(pool, SUBSCRIBERS);
  const reader = users[0];
  await seedNotifications(pool, reader, users);
  const token = (id: string) => signAccessToken(config, { sub: id, roles: [] as never });

  console.log(`\n== Unread count and list: ${USER_ROWS.toLocaleString('en')} notifications of one user, ${ROWS.toLocaleString('en')} rows in all`);
  const plan = await pool.query(`explain (analyze, buffers) select unread from notification_counters where user_id = $1`, [reader]);
  console.log(plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n'));
  console.log('target                                   req/s     p50 ms   p99 ms   non-2xx');
  const headers = { authorization: `Bearer ${token(reader)}` };
  for (const [name, path] of [
    ['baseline GET /auth/me (primary key)', '/auth/me'],
    ['GET /notifications/unread-count', '/notifications/unread-count'],
    ['GET /notifications?limit=20', '/notifications?limit=20'],
    ['GET /notifications?filter=unread', '/notifications?filter=unread&limit=20'],
  ]) {
    const r = await autocannon({ url: url + path, headers, connections: 16, duration: DURATION });
    console.log(`${name.padEnd(40)} ${r.requests.average.toFixed(0).padStart(6)} ${r.latency.p50.toFixed(1).padStart(9)} ${r.latency.p99.toFixed(1).padStart(8)} ${String(r.non2xx).padStart(9)}`);
  }

  console.log(`\n== Fan-out: ${SUBSCRIBERS.toLocaleString('en')} subscriptions on one instance, one event each, produced on another`);
  const before = await ask<{ rss: number; heapUsed: number }>('memory');
  const received = new Map<string, number>();
  const clients = [];
  for (const id of users) {
    const client = createClient({ url: `${url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token(id)}` }, retryAttempts: 0 });
    client.subscribe({ query: 'subscription { notificationAdded { id } }' }, { next: () => void received.set(id, performance.now()), error: () => undefined, complete: () => undefined });
    clients.push(client);
  }
  // Each client opens its socket on subscribe; wait until the server holds them all.
  await new Promise((resolve) => setTimeout(resolve, 3000 + SUBSCRIBERS));
  const after = await ask<{ rss: number; heapUsed: number }>('memory');
  const services = openUnit(producer.deps).services;
  const sent = new Map<string, number>();
  const started = performance.now();
  for (const id of users) {
    sent.set(id, performance.now());
    await services.notifications.notify(id, NotificationType.system, { title: { en: 'Hello', vi: 'Xin chào' }, body: { en: 'Hi', vi: 'Chào' } });
  }
  const produced = performance.now() - started;
  const deadline = Date.now() + 30_000;
  while (received.size < users.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const latencies = users
    .filter((id) => received.has(id))
    .map((id) => received.get(id)! - sent.get(id)!)
    .sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  console.log(`delivered ${latencies.length}/${users.length} in ${((performance.now() - started) / 1000).toFixed(1)} s (producing took ${(produced / 1000).toFixed(1)} s)`);
  console.log(`delivery latency p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`);
  console.log(
    `server memory per open subscription: ${((after.rss - before.rss) / SUBSCRIBERS / 1024).toFixed(1)} KiB RSS, ${((after.heapUsed - before.heapUsed) / SUBSCRIBERS / 1024).toFixed(1)} KiB heap`,
  );

  await Promise.all(clients.map(async (c) => c.dispose()));
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  await pool.end();
  await producer.close();
  await embedded?.stop();
}

async function seedUsers(pool: Pool, n: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into users (id, email, password_hash, display_name, roles, country, locale, tier, status, email_verified_at, created_at, updated_at)
     select gen_random_uuid(), 'bench-' || g || '-' || floor(random() * 1e9) || '@example.com', 'x', 'Bench ' || g, '{guardian}', 'VN', 'en', 'free', 'active', now(), now(), now()
     from generate_series(1, $1) g returning id`,
    [n],
  );
  return rows.map((r) => r.id);
}

/** USER_ROWS for the reader (one in ten unread), the rest spread over the other users. */
async function seedNotifications(pool: Pool, reader: string, users: string[]): Promise<void> {
  const insert = `insert into notifications (id, user_id, type, title, body, data, read_at, created_at)
    select gen_random_uuid(), %USER%, 'system', 'Title', 'Body', '{}', case when g % 10 = 0 then null else now() end, now() - (g || ' seconds')::interval
    from generate_series(1, $1) g`;
  await pool.query(insert.replace('%USER%', '$2::uuid'), [USER_ROWS, reader]);
  await pool.query(insert.replace('%USER%', '($2::uuid[])[1 + g % array_length($2::uuid[], 1)]'), [ROWS - USER_ROWS, users.slice(1)]);
  await pool.query('analyze notifications');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
