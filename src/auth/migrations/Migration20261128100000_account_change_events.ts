import { Migration } from '@mikro-orm/migrations';

/**
 * Every change of an account's row sends `accessChanged` with the id it had, on the event channel,
 * to every instance: each keeps its callers' accounts in memory (src/auth/account-cache.ts) and
 * `me` answers from there, so a new name or address must reach them as a new role does. The AI
 * area's trigger (its columns only, the new id) stays as it is; this one names the old id, which an
 * erasure replaces by its pseudonym.
 */
export class Migration20261128100000_account_change_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function account_changed_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('learning_platform_events', json_build_object('type', 'accessChanged', 'detail', old.id)::text);
        return null;
      end $$;`);
    this.addSql(
      `create trigger account_changed_notify after update on "users" for each row when (old.* is distinct from new.*) execute function account_changed_notify();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists account_changed_notify on "users";`);
    this.addSql(`drop function if exists account_changed_notify();`);
  }
}
