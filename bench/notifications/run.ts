import '../production';
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { signAccessToken } from '../../src/kernel/tokens';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { NotificationType } from '../../src/notifications/notification.entity';
import { createApp } from '../../src/server/app';
import { openUnit } from '../../src/server/platform';
import type { Deps } from '../../src/kernel/deps';
import { benchDatabase } from '../support';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const USER_ROWS = Number(process.env.BENCH_USER_ROWS ?? 100_000);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** How many notifications the producing instance makes at once in the streamed fan-out. */
const PRODUCERS = Number(process.env.BENCH_PRODUCERS ?? 8);
/** `lists`, `fanout` or both (comma-separated): the parts to run. */
const PARTS = (process.env.BENCH_PARTS ?? 'lists,fanout').split(',').map((part) => part.trim());
const WAIT_MS = Number(process.env.BENCH_WAIT_MS ?? 20_000);
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';

/**
 * Unread count and list for a user with 100,000 notifications in a table of 1,000,000, against
 * a one-row primary-key read (GET /auth/me) as the baseline in the same run; then the fan-out of one
 * event to each of 10,000 open subscriptions on one instance, produced on another instance, beside
 * a bare `ws` server broadcasting the same message to as many sockets (see `fanOut`).
 */
async function main() {
  const database = await benchDatabase();
  const env = { DATABASE_URL: database.databaseUrl, JWT_SECRET };
  const config = loadConfig({ ...process.env, ...env, DATA_DIR: database.dataDir, LOG_LEVEL: 'silent' });
  // The producing instance; the measured one runs in a child process.
  const producer = await createApp(config, createLogger('silent'));
  const child = fork(join(__dirname, 'server.js'), {
    env: { ...process.env, ...env },
    execArgv: [
      '--expose-gc',
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T>(message?: string | object) =>
    new Promise<T>((resolve) => {
      child.once('message', resolve as never);
      if (message) child.send(message);
    });
  const { url } = await ask<{ url: string }>();
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 4 });

  const users = await seedUsers(pool, SUBSCRIBERS);
  const reader = users[0];
  const token = (id: string) => signAccessToken(config, { sub: id, roles: [] as never });
  if (PARTS.includes('lists')) await lists(pool, url, reader, users, token);
  if (PARTS.includes('fanout')) await fanOut(url, users, token, ask, producer.deps);
  child.send({ stop: true });
  await new Promise((resolve) => child.once('exit', resolve));
  await pool.end();
  await producer.close();
  await database.stop();
  // 10,000 client sockets leave close-handshake timers behind: nothing more is measured.
  process.exit(0);
}

async function lists(pool: Pool, url: string, reader: string, users: string[], token: (id: string) => string) {
  await seedNotifications(pool, reader, users);
  console.log(
    `\n== Unread count and list: ${USER_ROWS.toLocaleString('en')} notifications of one user, ${ROWS.toLocaleString('en')} rows in all`,
  );
  const plan = await pool.query(
    `explain (analyze, buffers) select unread from notification_counters where user_id = $1`,
    [reader],
  );
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
    console.log(
      `${name.padEnd(40)} ${r.requests.average.toFixed(0).padStart(6)} ${r.latency.p50.toFixed(1).padStart(9)} ${r.latency.p99.toFixed(1).padStart(8)} ${String(r.non2xx).padStart(9)}`,
    );
  }
}

type Ask = <T>(message?: string | object) => Promise<T>;
interface Memory {
  rss: number;
  heapUsed: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (n: number) => n.toFixed(1).padStart(8);
const perSocket = (before: Memory, after: Memory, n: number) =>
  `${((after.rss - before.rss) / n / 1024).toFixed(1)} KiB RSS, ${((after.heapUsed - before.heapUsed) / n / 1024).toFixed(1)} KiB heap`;

function report(name: string, latencies: number[], expected: number, seconds: number) {
  latencies.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(52)} ${`${latencies.length}/${expected}`.padStart(13)} ${ms(pct(latencies, 50))} ${ms(pct(latencies, 99))} ${ms(latencies.at(-1) ?? NaN)} ${seconds.toFixed(1).padStart(7)}`,
  );
}

/**
 * The fan-out, on the instance in the child process, with the producing instance here and the
 * subscribers in a third process (clients.ts), all timed in epoch milliseconds:
 * - baseline: a bare `ws` server in the server's process sends the message the service sends
 *   (the same bytes) to each of N sockets, timed from the order given here;
 * - streamed: one notification for each of the N subscribers, PRODUCERS at once (as many areas
 *   would make them), each timed from its commit (its `notify` call returning here) to its receipt;
 * - burst: N notifications committed in one transaction, all timed from that commit.
 * Memory per socket is the server process's RSS and heap growth (after a GC) divided by N.
 */
async function fanOut(url: string, users: string[], token: (id: string) => string, ask: Ask, deps: Deps) {
  const n = users.length;
  const now = () => performance.timeOrigin + performance.now();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ');
  console.log(
    `\n== Fan-out: one event to each of ${n.toLocaleString('en')} subscriptions on one instance, produced on another (load average ${load()})`,
  );
  const subscribers = fork(join(__dirname, 'clients.js'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const tell = <T>(message: object) =>
    new Promise<T>((resolve) => {
      subscribers.once('message', resolve as never);
      subscribers.send(message);
    });
  await new Promise((resolve) => subscribers.once('message', resolve));
  /** Waits until every subscriber has `count` events (or the bare sockets `bare` messages), or WAIT_MS passes. */
  const arrived = async (count: number, bare = 0) => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const got = await tell<{ have: number; bare: number }>({ count });
      if ((bare ? got.bare >= bare : got.have >= n) || Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const header = `${'what'.padEnd(52)} ${'delivered'.padStart(13)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'all s'.padStart(7)}`;

  // Baseline: a bare ws server broadcasting the service's message.
  const message = JSON.stringify({
    id: randomUUID(),
    type: 'next',
    payload: { data: { notificationAdded: { id: randomUUID(), title: 'Hello' } } },
  });
  const bareBefore = await ask<Memory>({ memory: true });
  const { port } = await ask<{ port: number }>({ bare: true });
  await tell({ bare: { port, n } });
  const bareAfter = await ask<Memory>({ memory: true });
  const bareStarted = now();
  await ask({ broadcast: message });
  await arrived(0, n);
  const bareLatencies = (await tell<{ bare: number[] }>({ report: true })).bare.map((t) => t - bareStarted);
  console.log(header);
  report('baseline: bare ws server, one message to each socket', bareLatencies, n, Math.max(...bareLatencies) / 1000);
  await tell({ bareClose: true });
  await ask({ bareClose: true });

  // The service: one graphql-ws client per subscriber, each with its own account's token.
  const before = await ask<Memory>({ memory: true });
  await tell({ subscribe: { url, tokens: users.map((id) => [id, token(id)]) } });
  const after = await ask<Memory>({ memory: true });
  console.log(
    `server memory per socket: ${perSocket(before, after, n)} with a subscription; bare ws ${perSocket(bareBefore, bareAfter, n)}`,
  );

  const notification = { title: { en: 'Hello', vi: 'Xin chào' }, body: { en: 'Hi', vi: 'Chào' } };
  // Streamed: PRODUCERS notifications under way at once, each timed from its own commit.
  const committed = new Map<string, number>();
  let next = 0;
  const streamStarted = now();
  await Promise.all(
    Array.from({ length: PRODUCERS }, async () => {
      while (next < n) {
        const id = users[next++];
        // A unit of work each, as each area's request or job has.
        await openUnit(deps).services.notifications.notify(id, NotificationType.system, notification);
        committed.set(id, now());
      }
    }),
  );
  const produced = now() - streamStarted;
  await arrived(1);
  const streamSeconds = (now() - streamStarted) / 1000;
  let received = (await tell<{ received: Record<string, number[]> }>({ report: true })).received;
  const streamed = users.filter((id) => received[id]?.length >= 1).map((id) => received[id][0] - committed.get(id)!);
  report(`streamed: ${PRODUCERS} producers, from each commit`, streamed, n, streamSeconds);
  console.log(
    `producing the streamed events took ${(produced / 1000).toFixed(1)} s (${Math.round(n / (produced / 1000))} notifications/s)`,
  );

  // Burst: every notification in one transaction, so every event leaves at one commit.
  const unit = openUnit(deps);
  let burstCommit = 0;
  await unit.uow.transaction(async () => {
    // First of the effects after commit: the time of the commit, before any event is sent.
    unit.uow.afterCommit(() => void (burstCommit = now()));
    for (const id of users) {
      await unit.services.notifications.notify(id, NotificationType.system, notification);
      // Flushed: forgotten, or each flush would compare every entity made so far.
      unit.uow.em.clear();
    }
  });
  await arrived(2);
  received = (await tell<{ received: Record<string, number[]> }>({ report: true })).received;
  const burst = users.filter((id) => received[id]?.length >= 2).map((id) => received[id][1] - burstCommit);
  report('burst: all in one transaction, from its commit', burst, n, (Math.max(...burst) || 0) / 1000);
  console.log(`load average after: ${load()}`);
  subscribers.send({ stop: true });
  await new Promise((resolve) => subscribers.once('exit', resolve));
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
  await pool.query(insert.replace('%USER%', '($2::uuid[])[1 + g % array_length($2::uuid[], 1)]'), [
    ROWS - USER_ROWS,
    users.slice(1),
  ]);
  await pool.query('analyze notifications');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
