import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { Fleet } from '../../src/scripts/fleet/fleet';
import { createTestDatabase, TEST_SETTINGS } from './app';
import { makeDataDir } from './data-dir';
import { Client } from './http';

export interface TestFleet {
  fleet: Fleet;
  /** Through nginx, as clients reach the fleet. */
  proxy: Client;
  /** Each instance on its own port, past nginx: to pin where a socket lives or a request lands. */
  direct: Client[];
  /** The database's owner (for asOwner: setting up what a test is not about). */
  databaseUrl: string;
}

/**
 * One fleet per test file, as `npm run fleet` runs one: the built service (`npm run build` first),
 * three instances on a database of the test cluster, Redis when asked, nginx in front with
 * deploy/nginx.conf and TRUST_PROXY=1. Settings as the in-process test app has them (TEST_SETTINGS,
 * and cheap password hashes), unless `env` says otherwise.
 */
export function withFleet(options: { redis: boolean; instances?: number; env?: Record<string, string> }): TestFleet {
  const ctx = {} as TestFleet;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = makeDataDir('lp-fleet-');
    ctx.databaseUrl = await createTestDatabase();
    ctx.fleet = new Fleet({
      instances: options.instances ?? 3,
      dataDir,
      databaseUrl: ctx.databaseUrl,
      redis: options.redis,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...TEST_SETTINGS,
        TRUST_PROXY: '1',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
        LOG_FORMAT: 'json',
        PASSWORD_HASH_MEMORY_KIB: '1024',
        ...options.env,
      },
      // Only what goes wrong: the service's errors and nginx's own failures (not an upstream refusing
      // a connection, which a restart causes and nginx answers by trying another).
      onOutput: (name, line) =>
        /"level":(50|60)|\[(emerg|alert|crit)\]/.test(line) ? console.error(`${name} | ${line}`) : undefined,
    });
    try {
      await ctx.fleet.start();
    } catch (error) {
      await ctx.fleet.stop();
      throw error;
    }
    ctx.proxy = new Client(ctx.fleet.proxyUrl);
    ctx.direct = ctx.fleet.instances.map((instance) => new Client(instance.url));
  }, 300_000);
  afterAll(async () => {
    await ctx.fleet?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
  return ctx;
}
