import type { TestApp } from './app';

/**
 * The SQL statements the service sends while `run` runs: the fewest of three runs, since the
 * service's own jobs (sweeps, reports) may add theirs to any one of them.
 */
export async function fewestStatements<T>(t: TestApp, run: () => Promise<T>): Promise<{ result: T; count: number }> {
  const logger = t.app.deps.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  let best: { result: T; count: number } | undefined;
  try {
    for (let i = 0; i < 3; i++) {
      let count = 0;
      logger.logQuery = () => void count++;
      const result = await run();
      if (!best || count < best.count) best = { result, count };
    }
    return best!;
  } finally {
    logger.logQuery = original;
  }
}
