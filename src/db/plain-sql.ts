import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Orm } from './orm';

/**
 * Statements sent with pg itself, on a pool of their own, for the hottest reads and counters
 * outside a transaction (every request's caller, the catalog's page, the AI quota): MikroORM's `execute`
 * formats the parameters into the text and runs it through knex, about 90 µs of CPU a statement
 * more. Rows come back as `em.execute` gives them: the pool takes the ORM's connection options,
 * type parsers included (dates and timestamps as text).
 */
export interface PlainSql {
  /**
   * `sql` with `?` placeholders, as `em.execute` takes it. `prepared`: a statement sent many times a
   * second (the AI quota's) is parsed and planned once per connection, not on every call; only for
   * statements that name their columns (a prepared `select *` fails once a migration adds one).
   */
  query<T>(sql: string, params: readonly unknown[], options?: { prepared?: boolean }): Promise<T[]>;
  /**
   * A statement of no request (the outbox relay's claims and removals): not told to the ORM's
   * logger, so that what a request is seen to send is its own.
   */
  unlogged<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** Opens the connections the pool keeps. */
  warm(): Promise<void>;
  /** The pool's connections, for /metrics. */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** Connections of a pool: lent out, open and free, and callers waiting for one. */
export interface PoolStats {
  used: number;
  idle: number;
  waiting: number;
}

/** pg's pool as PoolStats. */
export const pgPoolStats = (pool: pg.Pool): PoolStats => ({
  used: pool.totalCount - pool.idleCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
});

export function openPlainSql(orm: Orm, log: Logger): PlainSql {
  // Kept warm, as the ORM's pool is: a request's first read (its caller's account) must not wait
  // for a connection to open; a WebSocket's operations sent after its subscription then overtook it.
  const pool = new pg.Pool({
    ...(orm.em.getConnection().getConnectionOptions() as pg.PoolConfig),
    min: WARM,
    max: 10,
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 3000,
  });
  // A lost connection of an idle client must not end the process; the next query gets a new one.
  pool.on('error', (err) => log.warn({ err: { message: err.message } }, 'plain sql: a database connection failed'));
  // Each statement is told to the ORM's logger as its own are, so whoever counts statements sees these too.
  const logger = orm.config.getLogger();
  const texts = new Map<string, { text: string; name: string }>();
  const run = async <T>(sql: string, params: readonly unknown[], prepared = false): Promise<T[]> => {
    let known = texts.get(sql);
    if (known === undefined) {
      // Named by its text: a name always stands for the one statement each connection prepared under it.
      known = { text: numbered(sql), name: `plain_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}` };
      if (texts.size >= 1000) texts.clear();
      texts.set(sql, known);
    }
    const { rows } = await pool.query(
      prepared
        ? { text: known.text, name: known.name, values: params as unknown[] }
        : { text: known.text, values: params as unknown[] },
    );
    return rows as T[];
  };
  return {
    async query<T>(sql: string, params: readonly unknown[], options?: { prepared?: boolean }) {
      const rows = await run<T>(sql, params, options?.prepared);
      logger.logQuery({ query: sql, level: 'info' });
      return rows;
    },
    unlogged: (sql, params) => run(sql, params),
    warm: () =>
      Promise.all(Array.from({ length: WARM }, () => pool.connect())).then((clients) =>
        clients.forEach((client) => client.release()),
      ),
    poolStats: () => pgPoolStats(pool),
    close: () => pool.end(),
  };
}

const WARM = 2;

/** `?` placeholders (outside quoted text) as pg's `$1`, `$2`, ... */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}
