import { Migration } from '@mikro-orm/migrations';

/**
 * `access_changed_notify(column)`: the database's way to send `accessChanged` (src/kernel/access.ts)
 * with the person a changed row names in `column` (none: everybody), at commit. The AI area's
 * migration made it for its own triggers; it is the foundation's now, for the triggers each area
 * keeps on its own tables. Made again as it was, so that either order of history leaves it the same.
 */
export class Migration20261129000000_access_changed_function extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function access_changed_notify() returns trigger language plpgsql as $$
      declare
        changed jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
      begin
        perform pg_notify('learning_platform_events', json_build_object('type', 'accessChanged', 'detail', coalesce(changed ->> tg_argv[0], '*'))::text);
        return null;
      end $$;`);
  }

  // The function stays: the AI area's migration, undone after this one, drops it.
  override async down(): Promise<void> {}
}
