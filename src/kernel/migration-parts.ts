import type { Migration } from '@mikro-orm/migrations';

/**
 * Whether a table exists already. An area's migration split out of one that once created several
 * areas' tables asks it first: a database that ran the original (its name is recorded) has the
 * tables, and the part adds nothing there; a new database gets them from the part.
 */
export async function createdBefore(migration: Migration, table: string): Promise<boolean> {
  const [row] = await migration.execute('select to_regclass(?) is not null as found', [table]);
  return Boolean(row?.found);
}
