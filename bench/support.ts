import { makeDataDir } from '../test/support/data-dir';
import 'reflect-metadata';
import { type Agent, request } from 'undici';
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, loadConfig } from '../src/config';
import { childPids, processCpuMs } from '../src/codelab/sandbox/cpu-time';
import { ensureDatabase, startEmbeddedPostgres, stopPostmasterNow } from '../src/db/embedded';
import { besideGlobal, databaseOf, GLOBAL_REGION, regionUrlSetting } from '../src/db/regions';
import { regions } from '../src/server/regions';
import { createLogger } from '../src/logger';
import { freePort } from '../test/support/ports';
import { type App, createApp } from '../src/server/app';
import { openUnit } from '../src/server/platform';
import type { Services } from '../src/kernel/services';

export interface BenchService {
  app: App;
  config: Config;
  url: string;
  databaseUrl: string;
  services: Services;
  stop(): Promise<void>;
}

/**
 * The service as deployed (production mode, silent logs), on a fresh embedded PostgreSQL unless
 * DATABASE_URL is set, with limits out of the way of the load. CodeLab's interpreters are not
 * warmed: building Pyodide's snapshot and starting its processes took a core for the first ten
 * seconds or more, while the first target was measured, and streamed the snapshot's hundred MiB
 * through the measured process (bench:codelab starts its own pool).
 */
export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  const { dataDir, databaseUrl, stop: stopDatabase } = await benchDatabase();
  const unlimited = '100000000';
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DEFAULT: unlimited,
    RATE_LIMIT_AUTH: unlimited,
    RATE_LIMIT_AI: unlimited,
    CODELAB_PREWARM: 'false',
    ...(await regionDatabases(databaseUrl)),
    ...env,
  });
  const app = await createApp(config, createLogger('silent'));
  const { port } = await app.listen(0, '127.0.0.1');
  return {
    app,
    config,
    url: `http://127.0.0.1:${port}`,
    databaseUrl,
    services: openUnit(app.deps).services,
    async stop() {
      await app.close();
      await stopDatabase();
    },
  };
}

/**
 * Each region's database beside the bench's (made when missing) unless the environment names it: a
 * production service given DATABASE_URL refuses to start without them, as a deployment must set them.
 */
async function regionDatabases(databaseUrl: string): Promise<Record<string, string>> {
  const settings: Record<string, string> = {};
  for (const region of regions.filter((name) => name !== GLOBAL_REGION)) {
    const setting = regionUrlSetting(region);
    if (process.env[setting]) continue;
    const url = besideGlobal(databaseUrl, region);
    await ensureDatabase(databaseUrl, databaseOf(url));
    settings[setting] = url;
  }
  return settings;
}

/**
 * A data folder of its own and, unless DATABASE_URL is set, a fresh embedded PostgreSQL in it on a
 * free port; `stop` stops it and removes the folder (a catalog or notification run leaves a GiB).
 */
export async function benchDatabase(): Promise<{ dataDir: string; databaseUrl: string; stop(): Promise<void> }> {
  const dataDir = makeDataDir('lp-bench-');
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(dataDir, await freePort());
  // A bench that fails exits without stopping its database, whose postmaster then outlived it.
  const abandon = () => {
    stopPostmasterNow(join(dataDir, 'postgres'));
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', abandon);
  return {
    dataDir,
    databaseUrl: process.env.DATABASE_URL ?? embedded!.url(),
    async stop() {
      process.off('exit', abandon);
      await embedded?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * CPU seconds the bench's embedded PostgreSQL has used so far: its backends, then its postmaster
 * with the backends it has reaped (read last, so that a backend ending meanwhile is counted there).
 * Undefined when DATABASE_URL names another server, or where /proc does not answer. What the
 * database costs per request bounds what any service on the same cores can reach, whatever it does.
 */
export function databaseCpuSeconds(service: BenchService): number | undefined {
  const pidFile = join(service.config.DATA_DIR, 'postgres', 'postmaster.pid');
  if (process.env.DATABASE_URL || !existsSync(pidFile)) return undefined;
  const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const backends = childPids(postmaster).reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0);
  const own = processCpuMs(postmaster, true);
  return own === null ? undefined : (own + backends) / 1000;
}

/** A benchmark's child process: reports to its parent, answers `'cpu'` with its CPU time (µs), stops when told anything else. */
export function serveUntilTold(message: object, stop: () => Promise<unknown>): void {
  process.send!(message);
  process.on('message', async (told) => {
    if (told === 'cpu') return void process.send!({ cpu: cpuMicros() });
    await stop();
    process.exit(0);
  });
}

/** The CPU time (µs) of a child that runs `serveUntilTold`. */
export function childCpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const answer = (message: { cpu?: number }) => {
      if (typeof message?.cpu !== 'number') return;
      child.off('message', answer);
      resolve(message.cpu);
    };
    child.on('message', answer);
    child.send('cpu');
  });
}

export function run(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

export interface LoadFigures {
  /** Requests per second (mean of the run). */
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and failed requests. */
  errors: number;
  /** Requests answered in the run. */
  total: number;
  /** CPU time this process spent per request (ms), when measured here (`cpu` of `loadFromChild`). */
  cpuMs?: number;
}

export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Loads a target with autocannon running in a child process, so that the process serving it (this
 * one, or a child of its own) spends its CPU on serving only. `cpu` reads the serving process's CPU
 * time (µs, user + system) before and after, for a figure that the machine's other load moves
 * less than requests per second: CPU ms per request.
 */
export async function loadFromChild(
  target: LoadTarget,
  options: { connections: number; duration: number },
  cpu: () => Promise<number> | number = () => cpuMicros(),
): Promise<LoadFigures> {
  const child = fork(join(__dirname, 'load.js'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const done = new Promise<LoadFigures>((resolve, reject) => {
    child.once('message', resolve as never);
    child.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
  });
  await new Promise((resolve) => child.once('spawn', resolve));
  const before = await cpu();
  child.send({ ...target, connections: options.connections, duration: options.duration });
  const figures = await done;
  const after = await cpu();
  return { ...figures, cpuMs: figures.total ? (after - before) / 1000 / figures.total : undefined };
}

export function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** What `loadPages` measured: whole loads a second, and the p50 and p99 of one, in milliseconds. */
export interface PageFigures {
  perSecond: number;
  p50: number;
  p99: number;
}

/** `clients` callers loading `page` back to back for `seconds`, after 20 loads of warm-up. */
export async function loadPages(page: () => Promise<unknown>, clients: number, seconds: number): Promise<PageFigures> {
  for (let i = 0; i < 20; i++) await page();
  const times: number[] = [];
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        await page();
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.floor(times.length * share)];
  return { perSecond: times.length / seconds, p50: at(0.5), p99: at(0.99) };
}

/** A JSON call to the service as a token's holder (a GET, or a POST of `body`): the answer's JSON, or an error unless 200 without `errors`. */
export function jsonCaller(baseUrl: string, agent: Agent) {
  return async (token: string, path: string, body?: string): Promise<unknown> => {
    const response = await request(baseUrl + path, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
      dispatcher: agent,
    });
    const json = (await response.body.json()) as { errors?: unknown };
    if (response.statusCode !== 200 || json.errors)
      throw new Error(`${path}: ${response.statusCode} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}
