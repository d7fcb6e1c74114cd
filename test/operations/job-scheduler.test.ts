import { createServer, type Server, Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createJobs, type Jobs } from '../../src/jobs/agenda';
import { createLogger, foldRepeats } from '../../src/logger';
import { createTestDatabase, TEST_SETTINGS } from '../support/app';

/**
 * The job scheduler (Agenda on a real PostgreSQL) under a backlog, and behind a TCP relay that the
 * test cuts: while the database is away every poll fails, and the log says so once, then once more
 * with how many followed, not a line per poll.
 */
const lines: { msg: string; repeats?: number }[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});

/** A TCP relay to the database: `cut` ends every connection through it and refuses new ones. */
class Relay {
  private readonly open = new Set<Socket>();
  private server?: Server;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket().connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.open.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => this.open.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async cut(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let jobs: Jobs;
let relay: Relay;
beforeAll(async () => {
  const database = new URL(await createTestDatabase());
  relay = new Relay({ host: database.hostname, port: Number(database.port) });
  await relay.listen();
  const throughRelay = new URL(database);
  throughRelay.port = String(relay.port);
  const config = loadConfig({
    ...TEST_SETTINGS,
    DATABASE_URL: throughRelay.toString(),
    JOBS_PROCESS_EVERY_MS: '50',
  });
  jobs = createJobs(config, throughRelay.toString(), createLogger('info', capture));
  jobs.define('test-noop', async () => undefined);
  await jobs.start();
});
afterAll(async () => {
  await relay.listen();
  await jobs?.close();
});

describe('the job scheduler under a backlog', () => {
  it('locks no more than twice what it runs, and holds nothing once the backlog is done', async () => {
    const config = loadConfig({
      ...TEST_SETTINGS,
      DATABASE_URL: await createTestDatabase(),
      JOBS_PROCESS_EVERY_MS: '100',
      JOBS_LOCK_LIFETIME_MS: '1000',
    });
    const backlog = createJobs(config, config.DATABASE_URL!, createLogger('silent'));
    let runs = 0;
    backlog.define(
      'test-slow',
      async () => {
        await sleep(150);
        runs++;
      },
      { concurrency: 1 },
    );
    // Twenty at once, three seconds of work: locked all together, most would wait past their lock's second.
    for (let i = 0; i < 20; i++) await backlog.agenda.now('test-slow', { i });
    let mostLocked = 0;
    await backlog.start();
    try {
      while (runs < 20) {
        mostLocked = Math.max(mostLocked, (await backlog.agenda.getRunningStats()).lockedJobs as number);
        await sleep(20);
      }
      await sleep(300);
      expect(runs).toBe(20);
      expect(mostLocked).toBeLessThanOrEqual(2);
      expect((await backlog.agenda.getRunningStats()).lockedJobs).toBe(0);
    } finally {
      await backlog.close();
    }
  }, 30_000);
});

describe('the job scheduler while its database is away', () => {
  it('logs the outage in one line, not one per poll', async () => {
    let failures = 0;
    jobs.agenda.on('error', () => failures++);
    await relay.cut();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(failures).toBeGreaterThan(10);
    const logged = lines.filter((line) => line.msg.startsWith('job scheduler error'));
    expect(logged.map((line) => line.msg)).toEqual(['job scheduler error']);
  });
});

describe('foldRepeats', () => {
  it('logs the first failure at once and those within the window as one line when it ends', async () => {
    const folded: { msg: string; repeats?: number; err?: { message: string } }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        folded.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const report = foldRepeats(createLogger('info', sink), 'relay failed', 200);
    for (let i = 1; i <= 5; i++) report(new Error(`failure ${i}`));
    expect(folded.map((line) => [line.msg, line.err?.message])).toEqual([['relay failed', 'failure 1']]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(folded.map((line) => [line.msg, line.err?.message, line.repeats])).toEqual([
      ['relay failed', 'failure 1', undefined],
      ['relay failed (repeated)', 'failure 5', 4],
    ]);
    // A failure after the window opens a new one.
    report(new Error('failure 6'));
    expect(folded.at(-1)?.err?.message).toBe('failure 6');
  });
});
