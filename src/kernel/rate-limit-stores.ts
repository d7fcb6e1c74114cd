import { Redis } from 'ioredis';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis } from 'rate-limiter-flexible';

export interface LimiterOptions {
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/** The one table every bucket of every instance counts in (key = bucket prefix + user, IP or e-mail). */
export const RATE_LIMIT_TABLE = 'rate_limits';

/**
 * Where the counters of DESIGN.md 4.3 live: Redis when `REDIS_URL` is set, else the service's own
 * PostgreSQL (so that every instance on one database shares one limit), and memory only for a
 * process without either (one instance). A store that cannot be reached falls back to a counter in
 * memory for as long as it is down (an outage must not turn every request into a 500).
 */
export interface RateLimitStore {
  readonly kind: 'memory' | 'postgres' | 'redis';
  limiter(options: LimiterOptions): RateLimiterAbstract;
  close(): Promise<void>;
}

export function memoryStore(): RateLimitStore {
  return { kind: 'memory', limiter: (options) => new RateLimiterMemory(options), close: async () => {} };
}

/** Counters in the table `rate_limits` of the service's database, through a small pool of their own. */
export async function postgresStore(databaseUrl: string, log: Logger): Promise<RateLimitStore> {
  const pool = new Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 2000, query_timeout: 2000, idleTimeoutMillis: 10_000 });
  // A lost connection of an idle client must not end the process; the next query gets a new one.
  pool.on('error', (err) => log.warn({ err: { message: err.message } }, 'rate limit store: a database connection failed'));
  try {
    // Made here once, not by each limiter: two CREATE TABLEs at once collide in pg_type.
    await pool.query(`create table if not exists "${RATE_LIMIT_TABLE}" (key varchar(255) primary key, points integer not null default 0, expire bigint)`);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') {
      await pool.end();
      throw error;
    }
  }
  return {
    kind: 'postgres',
    limiter: (options) =>
      new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: true,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
    close: () => pool.end(),
  };
}

/** Counters in Redis (`REDIS_URL`), shared by every instance that names the same server. */
export async function redisStore(redisUrl: string, log: Logger): Promise<RateLimitStore> {
  const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
  client.on('error', (err: Error) => log.warn({ err: { message: err.message } }, 'rate limit store: redis failed'));
  await client.connect();
  return {
    kind: 'redis',
    limiter: (options) => new RateLimiterRedis({ ...options, storeClient: client, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** The store a configuration asks for: Redis if `REDIS_URL` is set, else the database, else memory. */
export async function openRateLimitStore(options: { redisUrl?: string; databaseUrl?: string; log: Logger }): Promise<RateLimitStore> {
  if (options.redisUrl) return redisStore(options.redisUrl, options.log);
  if (options.databaseUrl) return postgresStore(options.databaseUrl, options.log);
  return memoryStore();
}
