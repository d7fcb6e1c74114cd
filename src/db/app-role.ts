import { createHmac } from 'node:crypto';
import { Client } from 'pg';
import { isReachable } from './embedded';
import { identifier, literal } from './quoting';

/** The role the service runs as, beside the owner that runs the migrations. */
export const APP_ROLE = 'learning_platform_app';

/**
 * The service runs as a role that owns no table: it reads and writes rows, and nothing more. It
 * cannot drop or alter a table, nor disable the triggers that keep the ledger and the audit trail
 * append-only (only an owner or a superuser can), nor TRUNCATE (which fires no row trigger).
 * Anything that runs SQL as the service (an injection, a bug) meets the same walls.
 *
 * `ownerUrl` (DATABASE_URL, or the embedded superuser) ran the migrations; this makes the role when
 * it is missing, grants it the rows of every table, and answers its connection string. Its password
 * is derived from the owner's, so every instance derives the same one and none is stored.
 * `tables` are made by the owner first: tables the service would otherwise create at run time.
 */
export async function prepareAppRole(ownerUrl: string, tables: readonly string[] = []): Promise<string> {
  const url = new URL(ownerUrl);
  // Not keyed by host or port: instances that reach one cluster by different addresses (a proxy, a
  // pooler) must derive the same password, or each start resets it and the others' new connections fail.
  const password = createHmac('sha256', decodeURIComponent(url.password) || url.username)
    .update(APP_ROLE)
    .digest('base64url');
  const appUrl = new URL(ownerUrl);
  appUrl.username = APP_ROLE;
  appUrl.password = password;
  const database = decodeURIComponent(url.pathname.slice(1));
  const owner = new Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    for (const table of tables) await owner.query(table);
    await retried(async () => {
      const { rowCount } = await owner.query('select 1 from pg_roles where rolname = $1', [APP_ROLE]);
      // NOINHERIT and no membership: the role has exactly the grants below.
      if (!rowCount)
        await owner.query(
          `create role ${APP_ROLE} login noinherit nosuperuser nocreatedb nocreaterole nobypassrls password ${literal(password)}`,
        );
      else if (!(await isReachable(appUrl.toString())))
        await owner.query(`alter role ${APP_ROLE} with login password ${literal(password)}`);
    });
    await retried(async () => {
      await owner.query(`grant connect, temporary on database ${identifier(database)} to ${APP_ROLE}`);
      await owner.query(`grant usage on schema public to ${APP_ROLE}`);
      await owner.query(`grant select, insert, update, delete on all tables in schema public to ${APP_ROLE}`);
      await owner.query(`grant usage, select, update on all sequences in schema public to ${APP_ROLE}`);
      // The owner's functions the service calls (erasure's pseudonymisation of append-only rows).
      await owner.query(`grant execute on all functions in schema public to ${APP_ROLE}`);
    });
  } finally {
    await owner.end();
  }
  return appUrl.toString();
}

/** Roles and grants are shared by every database of a server: several services starting at once may collide on them. */
async function retried(work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      // 42710: made by another at the same moment; XX000: "tuple concurrently updated".
      if (attempt >= 5 || !['42710', 'XX000', '23505', '40001', '40P01'].includes(code ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/**
 * A region's copies of the shared tables are PostgreSQL's to write (replication, as their owner):
 * the service may only read them, so that a write meant for global's fails loudly instead of being
 * overwritten, or refused by the subscription, later.
 */
export async function readOnlyForService(ownerUrl: string, tables: readonly string[]): Promise<void> {
  const owner = new Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    const list = tables.map(identifier).join(', ');
    await retried(async () => void (await owner.query(`revoke insert, update, delete on ${list} from ${APP_ROLE}`)));
  } finally {
    await owner.end();
  }
}
