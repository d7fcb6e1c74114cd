import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010000_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "notification_settings" ("user_id" uuid not null, "disabled_types" text[] not null, "updated_at" timestamptz not null, constraint "notification_settings_pkey" primary key ("user_id"));`,
    );

    this.addSql(
      `create table "notifications" ("id" uuid not null, "user_id" uuid not null, "type" text check ("type" in ('progress', 'certificate', 'creator_message', 'system', 'guardian', 'consent')) not null, "title" text not null, "body" text not null, "data" jsonb not null, "read_at" timestamptz null, "created_at" timestamptz not null, constraint "notifications_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "notifications_user_id_created_at_id_index" on "notifications" ("user_id", "created_at", "id");`,
    );
    // The bell's unread count reads only this index, however many read notifications pile up.
    this.addSql(`create index "notifications_unread_index" on "notifications" ("user_id") where "read_at" is null;`);

    this.addSql(
      `alter table "notification_settings" add constraint "notification_settings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "notifications" add constraint "notifications_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "notification_settings" cascade;`);

    this.addSql(`drop table if exists "notifications" cascade;`);
  }
}
