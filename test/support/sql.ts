import type { TestApp } from './app';

/**
 * The SQL statements the service sends while `run` runs: those of the run that sent the fewest of
 * `runs`, since the service's own jobs (sweeps, reports, the outbox) may add theirs to any one of them.
 * Each run starts once what earlier requests set going is done, so their reactions are not counted.
 */
export async function fewestStatements<T>(
  t: TestApp,
  run: () => Promise<T>,
  runs = 3,
): Promise<{ result: T; count: number; statements: string[] }> {
  // Every region's: the statements of a request go to its caller's home database.
  const loggers = t.app.deps.regions.map((region) => region.orm.config.getLogger());
  const originals = loggers.map((logger) => logger.logQuery.bind(logger));
  const restore = () => loggers.forEach((logger, i) => (logger.logQuery = originals[i]));
  let best: { result: T; count: number; statements: string[] } | undefined;
  try {
    for (let i = 0; i < runs; i++) {
      restore();
      await settled(t);
      const statements: string[] = [];
      for (const logger of loggers)
        logger.logQuery = (context: { query: string }) => void statements.push(context.query);
      const result = await run();
      if (!best || statements.length < best.count) best = { result, count: statements.length, statements };
    }
    return best!;
  } finally {
    restore();
  }
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
