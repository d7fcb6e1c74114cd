import { Redis } from 'ioredis';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
} from 'rate-limiter-flexible';
import { WriteCombiner } from './write-combiner';

export interface LimiterOptions {
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

/** The one table every bucket of every instance counts in (key = bucket prefix + user, IP or e-mail). */
export const RATE_LIMIT_TABLE = 'rate_limits';
export const RATE_LIMIT_TABLE_DDL = `create table if not exists "${RATE_LIMIT_TABLE}" (key varchar(255) primary key, points integer not null default 0, expire bigint)`;

/**
 * Where the counters of docs/conventions.md#rate-limits live: Redis when `REDIS_URL` is set, else the service's own
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
  // Counters are not worth a disk flush each: a crash may forget the last fraction of a second of counting.
  const pool = new Pool({
    connectionString: databaseUrl,
    options: '-c synchronous_commit=off',
    max: 4,
    connectionTimeoutMillis: 2000,
    query_timeout: 2000,
    idleTimeoutMillis: 10_000,
  });
  // A lost connection of an idle client must not end the process; the next query gets a new one.
  pool.on('error', (err) =>
    log.warn({ err: { message: err.message } }, 'rate limit store: a database connection failed'),
  );
  try {
    // Made once, by the owner at start-up (the service's own role creates no table), else here.
    const { rows } = await pool.query<{ made: string | null }>('select to_regclass($1) as made', [RATE_LIMIT_TABLE]);
    if (!rows[0].made) await pool.query(RATE_LIMIT_TABLE_DDL);
  } catch (error) {
    // Two CREATE TABLEs at once collide in pg_type.
    if ((error as { code?: string }).code !== '23505') {
      await pool.end();
      throw error;
    }
  }
  const counts = countInBatches(pool);
  return {
    kind: 'postgres',
    limiter: (options) =>
      new BatchedPostgresLimiter(counts, {
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

interface Increment {
  key: string;
  points: number;
  /** When a counter that starts now ends (ms since the epoch), null for one that never does. */
  expire: number | null;
  settle(row: { points: number; expire: number | null }): void;
  fail(error: unknown): void;
}

type Count = (increment: Omit<Increment, 'settle' | 'fail'>) => Promise<{ points: number; expire: number | null }>;

/**
 * Every bucket's increments that arrive while statements are under way go together in the next
 * one: one round trip counts a request in all its buckets, and under load hundreds of requests. Each
 * caller gets the count as it stood after its own increment (the counters stay exact): increments of
 * one key in one statement are added up and handed out in order of arrival. Rows are taken in key
 * order, so statements of several instances wait for each other's row locks but never deadlock.
 */
function countInBatches(pool: Pool): Count {
  const combiner = new WriteCombiner<Increment>(
    async (batch) => {
      const byKey = new Map<string, Increment[]>();
      for (const increment of batch) {
        const same = byKey.get(increment.key);
        if (same) same.push(increment);
        else byKey.set(increment.key, [increment]);
      }
      const rows = [...byKey].map(([key, same]) => ({ key, points: total(same), expire: same[0].expire }));
      try {
        const result = await pool.query<{ key: string; points: number; expire: string | null }>({
          // Prepared once per connection: parsing and planning it on every request's count took half its round trip.
          name: 'rate_limit_count',
          text: `insert into "${RATE_LIMIT_TABLE}" (key, points, expire) select key, points, expire from jsonb_to_recordset($1::jsonb) as b (key varchar, points integer, expire bigint) order by key
           on conflict (key) do update set
             points = case when "${RATE_LIMIT_TABLE}".expire <= $2 then excluded.points else "${RATE_LIMIT_TABLE}".points + excluded.points end,
             expire = case when "${RATE_LIMIT_TABLE}".expire <= $2 then excluded.expire else "${RATE_LIMIT_TABLE}".expire end
           returning key, points, expire`,
          values: [JSON.stringify(rows), Date.now()],
        });
        for (const row of result.rows) {
          const expire = row.expire === null ? null : Number(row.expire);
          const same = byKey.get(row.key)!;
          let after = row.points - total(same);
          for (const increment of same) {
            after += increment.points;
            increment.settle({ points: after, expire });
          }
        }
      } catch (error) {
        for (const increment of batch) increment.fail(error);
      }
    },
    // Two statements at most: with four, a 2-core machine at 2,500 chats/s sent batches of one or two
    // increments and spent a round trip each; two gather more while a lone request still goes at once.
    { maxBatch: 1000, maxStatements: 2, keyOf: (increment) => increment.key, sameKeyTogether: true },
  );
  return (increment) => new Promise((settle, fail) => combiner.add({ ...increment, settle, fail }));
}

const total = (increments: Increment[]) => increments.reduce((sum, i) => sum + i.points, 0);

/**
 * rate-limiter-flexible's PostgreSQL limiter with its increments counted in batches (its `_upsert`,
 * the one step every store implements); what sets a counter outright (`set`, `block`) and reads go
 * as the library does them.
 */
class BatchedPostgresLimiter extends RateLimiterPostgres {
  constructor(
    private readonly count: Count,
    options: ConstructorParameters<typeof RateLimiterPostgres>[0],
  ) {
    super(options);
  }

  _upsert(
    key: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<{ rows: { points: number; expire: number | null }[] }> {
    if (forceExpire)
      return (RateLimiterPostgres.prototype as unknown as BatchedPostgresLimiter)._upsert.call(
        this,
        key,
        points,
        msDuration,
        forceExpire,
      );
    return this.count({ key, points, expire: msDuration > 0 ? Date.now() + msDuration : null }).then((row) => ({
      rows: [row],
    }));
  }
}

/** Counters in Redis (`REDIS_URL`), shared by every instance that names the same server. */
export async function redisStore(redisUrl: string, log: Logger): Promise<RateLimitStore> {
  const client = new Redis(redisUrl, {
    // The counts asked for in one turn of the event loop (a request's buckets, the requests read in
    // the same poll) leave in one write: one write to Redis a count was an eighth of the AI proxy's CPU.
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    lazyConnect: true,
  });
  client.on('error', (err: Error) => log.warn({ err: { message: err.message } }, 'rate limit store: redis failed'));
  await client.connect();
  return {
    kind: 'redis',
    limiter: (options) =>
      new RateLimiterRedis({
        ...options,
        storeClient: client,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** The store a configuration asks for: Redis if `REDIS_URL` is set, else the database, else memory. */
export async function openRateLimitStore(options: {
  redisUrl?: string;
  databaseUrl?: string;
  log: Logger;
}): Promise<RateLimitStore> {
  if (options.redisUrl) return redisStore(options.redisUrl, options.log);
  if (options.databaseUrl) return postgresStore(options.databaseUrl, options.log);
  return memoryStore();
}
