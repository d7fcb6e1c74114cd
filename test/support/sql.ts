import pg from 'pg';
import type { TestApp } from './app';

interface Fewest<T> {
  result: T;
  count: number;
  statements: string[];
}

/**
 * The SQL statements the service sends while `run` runs: those of the run that sent the fewest of
 * `runs`, since the service's own jobs (sweeps, reports, the outbox) may add theirs to any one of them.
 * Each run starts once what earlier requests set going is done, so their reactions are not counted.
 */
export function fewestStatements<T>(t: TestApp, run: () => Promise<T>, runs = 3): Promise<Fewest<T>> {
  // Every region's: the statements of a request go to its caller's home database.
  const loggers = t.app.deps.regions.map((region) => region.orm.config.getLogger());
  return fewestOf(t, run, runs, (record) => {
    const originals = loggers.map((logger) => logger.logQuery);
    for (const logger of loggers) logger.logQuery = (context: { query: string }) => record(context.query);
    return () => loggers.forEach((logger, i) => (logger.logQuery = originals[i]));
  });
}

/**
 * The same, counting what every PostgreSQL client of this process sends, not only what the ORM
 * logs: the rate-limit store's own pool included, so a request's round trips to the database are
 * all counted.
 */
export function fewestStatementsSent<T>(t: TestApp, run: () => Promise<T>, runs = 3): Promise<Fewest<T>> {
  const prototype = pg.Client.prototype as { query(...args: unknown[]): unknown };
  return fewestOf(t, run, runs, (record) => {
    const original = prototype.query;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      const [query] = args as [string | { text: string }];
      record(typeof query === 'string' ? query : query.text);
      return original.apply(this, args);
    };
    return () => void (prototype.query = original);
  });
}

async function fewestOf<T>(
  t: TestApp,
  run: () => Promise<T>,
  runs: number,
  watch: (record: (statement: string) => void) => () => void,
): Promise<Fewest<T>> {
  let best: Fewest<T> | undefined;
  for (let i = 0; i < runs; i++) {
    await settled(t);
    const statements: string[] = [];
    const stop = watch((statement) => void statements.push(statement));
    try {
      const result = await run();
      if (!best || statements.length < best.count) best = { result, count: statements.length, statements };
    } finally {
      stop();
    }
  }
  return best!;
}

/**
 * A statement as the database's owner (the URL the test gave the service), not as the role the
 * service runs as: fault-injecting triggers and functions are DDL, which that role may not run.
 */
export async function asOwner(
  t: Pick<TestApp, 'databaseUrl'>,
  text: string,
  params: unknown[] = [],
): Promise<unknown[]> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as unknown[];
  } finally {
    await client.end();
  }
}

/**
 * Until what earlier requests set going after their commit is done (the outbox's rows delivered, one-off
 * jobs run): a request's statements counted after it are its own.
 */
export async function settled(t: TestApp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(
      t.app.deps.regions.map(async (region) => {
        const [{ n }] = await region.sql.unlogged<{ n: number }>(
          `select (select count(*) from outbox where failed_at is null)::int + (select count(*) from agenda_jobs where repeat_interval is null and (locked_at is not null or next_run_at <= now() + interval '1 second'))::int as n`,
          [],
        );
        return n;
      }),
    );
    const n = counts.reduce((sum, count) => sum + count, 0);
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} outbox rows or jobs still waiting`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
