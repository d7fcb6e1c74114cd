import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../src/config';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { createLogger } from '../src/logger';
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
 * DATABASE_URL is set, with limits out of the way of the load.
 */
export async function startBenchService(env: Record<string, string> = {}): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lp-bench-'));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(dataDir, 54400 + Math.floor(Math.random() * 500));
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url();
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
      await embedded?.stop();
    },
  };
}

/** A benchmark's child process: reports to its parent, stops when told. */
export function serveUntilTold(message: object, stop: () => Promise<unknown>): void {
  process.send!(message);
  process.on('message', async () => {
    await stop();
    process.exit(0);
  });
}

export function run(main: () => Promise<void>): void {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
