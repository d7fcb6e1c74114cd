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
  const logger = t.app.deps.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  let best: { result: T; count: number; statements: string[] } | undefined;
  try {
    for (let i = 0; i < runs; i++) {
      logger.logQuery = original;
      await settled(t);
      const statements: string[] = [];
      logger.logQuery = (context: { query: string }) => void statements.push(context.query);
      const result = await run();
      if (!best || statements.length < best.count) best = { result, count: statements.length, statements };
    }
    return best!;
  } finally {
    logger.logQuery = original;
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
    const [{ n }] = await t.app.deps.sql.unlogged<{ n: number }>(
      `select (select count(*) from outbox where failed_at is null)::int + (select count(*) from agenda_jobs where repeat_interval is null and (locked_at is not null or next_run_at <= now() + interval '1 second'))::int as n`,
      [],
    );
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} outbox rows or jobs still waiting`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
