import type { Deps } from '../../src/kernel/deps';
import { besideGlobal, GLOBAL_REGION } from '../../src/db/regions';
import type { TestApp } from './app';

/**
 * The process seen from an account's home region (its database, its jobs): where a test reads or
 * writes what the service keeps of that person. Accounts without a directory entry are global's.
 */
export async function homeOf(t: Pick<TestApp, 'app'>, accountId: string): Promise<Deps> {
  const global = t.app.deps.inRegion(GLOBAL_REGION);
  const [row] = await global.sql.unlogged<{ region: string }>('select region from account_regions where id = ?', [
    accountId,
  ]);
  return global.inRegion(row?.region ?? GLOBAL_REGION);
}

/** A region's database as its owner, for `asOwner`: global's is the test's own, the others beside it. */
export const ownerOf = (t: Pick<TestApp, 'databaseUrl'>, region: string): { databaseUrl: string } => ({
  databaseUrl: region === GLOBAL_REGION ? t.databaseUrl : besideGlobal(t.databaseUrl, region),
});

/** The owner's connection to an account's home database. */
export async function ownerOfAccount(
  t: Pick<TestApp, 'app' | 'databaseUrl'>,
  accountId: string,
): Promise<{ databaseUrl: string }> {
  return ownerOf(t, (await homeOf(t, accountId)).region);
}

/**
 * Waits until every region's database answers `probe` (`select 1 from courses where id = ? and
 * published`) with a row: shared data written in global's reaches the others by replication, a
 * moment later, and a test acting next as an account of another region must find it there.
 */
export async function inEveryRegion(
  t: Pick<TestApp, 'app'>,
  probe: string,
  params: readonly unknown[],
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const view of t.app.deps.regions) {
    while (!(await view.sql.unlogged(probe, params)).length) {
      if (Date.now() > deadline) throw new Error(`not replicated to region ${view.region}: ${probe}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
