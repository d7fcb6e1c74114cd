import { Migration } from '@mikro-orm/migrations';

/**
 * The unread counter's key as the entity declares it (named and cascading like every other), so
 * that the schema the entities describe and the migrated one are the same.
 */
export class Migration20261123100000_schema_as_declared extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "notification_counters" drop constraint "notification_counters_user_id_fkey";`);
    this.addSql(
      `alter table "notification_counters" add constraint "notification_counters_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "notification_counters" drop constraint "notification_counters_user_id_foreign";`);
    this.addSql(
      `alter table "notification_counters" add constraint "notification_counters_user_id_fkey" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
  }
}
