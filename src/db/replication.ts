import { Client } from 'pg';
import { identifier, literal } from './quoting';
import { databaseOf } from './regions';

/** Global's publication of the shared data (courses, products, policies, flags...). */
export const PUBLICATION = 'shared_data';

/** Any constant: the key of the session lock that lets one instance at a time set up a database's replication. */
const REPLICATION_LOCK_KEY = 7_245_318_902;

/**
 * A region's subscription (in its database) and its replication slot (on global's server, where a
 * slot's name is the whole cluster's): named after the region's database, so that regions on one
 * server (the embedded one, tests) do not share one.
 */
export const subscriptionName = (regionUrl: string): string =>
  `shared_data_${databaseOf(regionUrl)}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 63);

/** Global's publication, made or brought to `tables` (instances starting together take turns). */
export async function publishSharedTables(globalUrl: string, tables: readonly string[]): Promise<void> {
  await locked(globalUrl, async (global) => {
    const { rowCount } = await global.query('select 1 from pg_publication where pubname = $1', [PUBLICATION]);
    const list = tables.map(identifier).join(', ');
    if (!rowCount) return void (await global.query(`create publication ${PUBLICATION} for table ${list}`));
    const { rows } = await global.query<{ table: string }>(
      'select tablename as table from pg_publication_tables where pubname = $1',
      [PUBLICATION],
    );
    if (!sameTables(rows, tables)) await global.query(`alter publication ${PUBLICATION} set table ${list}`);
  });
}

/**
 * A region's subscription to global's publication, made once: its copies of the shared tables are
 * emptied (its migrations seeded them, with ids of their own), then PostgreSQL copies global's rows
 * and streams every later change. Its slot is made first, apart: `CREATE SUBSCRIPTION` waits forever
 * for a slot it makes itself on its own server. A subscription that exists learns tables the
 * publication gained since.
 */
export async function subscribeRegion(globalUrl: string, regionUrl: string, tables: readonly string[]): Promise<void> {
  const name = subscriptionName(regionUrl);
  await locked(regionUrl, async (region) => {
    const { rows } = await region.query<{ table: string }>(
      `select c.relname as table from pg_subscription s join pg_subscription_rel r on r.srsubid = s.oid
        join pg_class c on c.oid = r.srrelid
        where s.subname = $1 and s.subdbid = (select oid from pg_database where datname = current_database())`,
      [name],
    );
    const subscribed = await region.query(
      'select 1 from pg_subscription where subname = $1 and subdbid = (select oid from pg_database where datname = current_database())',
      [name],
    );
    if (subscribed.rowCount) {
      if (!sameTables(rows, tables)) await region.query(`alter subscription ${identifier(name)} refresh publication`);
      return;
    }
    await emptyCopies(region, tables);
    await freshSlot(globalUrl, name);
    await region.query(
      `create subscription ${identifier(name)} connection ${literal(globalUrl)} publication ${PUBLICATION}
        with (create_slot = false, slot_name = ${literal(name)}, copy_data = true)`,
    );
  });
}

/**
 * Ends a region's subscription, then its slot (a test's databases, before they are left behind). Not
 * by `DROP SUBSCRIPTION` alone: it drops the slot from inside its transaction, and on one server a
 * slot being made elsewhere waits for that transaction while the drop waits for the slot's sender.
 */
export async function unsubscribeRegion(globalUrl: string, regionUrl: string): Promise<void> {
  const name = subscriptionName(regionUrl);
  await withClient(regionUrl, async (region) => {
    const { rowCount } = await region.query('select 1 from pg_subscription where subname = $1', [name]);
    if (!rowCount) return;
    await initialCopyDone(region, name);
    await region.query(`alter subscription ${identifier(name)} disable`);
    await region.query(`alter subscription ${identifier(name)} set (slot_name = none)`);
    await region.query(`drop subscription ${identifier(name)}`);
  });
  await withClient(globalUrl, async (global) => {
    // The disabled subscription's sender may take a moment to let the slot go.
    for (let attempt = 1; attempt <= 50; attempt++) {
      const { rows } = await global.query<{ active: boolean }>(
        'select active from pg_replication_slots where slot_name = $1',
        [name],
      );
      if (!rows.length) return;
      if (!rows[0].active) return void (await global.query('select pg_drop_replication_slot($1)', [name]));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

/**
 * Waits until each table's first copy has ended: a copy's worker makes a slot of its own, which waits
 * for every transaction then running on the server, and `DROP SUBSCRIPTION` drops that slot from
 * inside its own transaction, so dropped midway the two wait for each other for good (and with them
 * every slot made on the server after).
 */
async function initialCopyDone(region: Client, name: string): Promise<void> {
  for (let attempt = 1; attempt <= 300; attempt++) {
    const { rows } = await region.query<{ copying: number }>(
      `select count(*)::int as copying from pg_subscription_rel r join pg_subscription s on s.oid = r.srsubid
        where s.subname = $1 and r.srsubstate <> 'r'`,
      [name],
    );
    if (rows[0].copying === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A slot left by a subscription that is gone would stream changes from where it stopped: made anew. */
async function freshSlot(globalUrl: string, name: string): Promise<void> {
  await withClient(globalUrl, async (global) => {
    await global.query('select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1', [
      name,
    ]);
    await global.query(`select pg_create_logical_replication_slot($1, 'pgoutput')`, [name]);
  });
}

/** Deletes the region's copies, a table before those it references; one a person's row references is refused. */
async function emptyCopies(region: Client, tables: readonly string[]): Promise<void> {
  const { rows: references } = await region.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and c.oid <> p.oid and c.relname = any($1) and p.relname = any($1)`,
    [tables],
  );
  const left = new Set(tables);
  while (left.size) {
    const ready = [...left].filter((table) => !references.some((r) => r.parent === table && left.has(r.child)));
    if (!ready.length) throw new Error(`the shared tables ${[...left].join(', ')} reference each other in a cycle`);
    for (const table of ready) {
      await region.query(`delete from ${identifier(table)}`);
      left.delete(table);
    }
  }
}

const sameTables = (rows: { table: string }[], tables: readonly string[]) =>
  rows.length === tables.length && rows.every((row) => tables.includes(row.table));

async function locked(url: string, work: (client: Client) => Promise<void>): Promise<void> {
  // The lock ends with the connection: an instance killed midway leaves nothing held.
  await withClient(url, async (client) => {
    await client.query('select pg_advisory_lock($1)', [REPLICATION_LOCK_KEY]);
    await work(client);
  });
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
