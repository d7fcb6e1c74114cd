import { Migration } from '@mikro-orm/migrations';

/** Messages of the contact form. */
export class Migration20261123110000_contact extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "contact_messages" ("id" uuid not null, "name" text not null, "email" text not null, "subject" text not null, "message" text not null, "locale" text check ("locale" in ('vi', 'en')) not null, "status" text check ("status" in ('open', 'resolved')) not null default 'open', "resolved_by_id" uuid null, "resolved_at" timestamptz null, "created_at" timestamptz not null, constraint "contact_messages_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "contact_messages_created_at_id_index" on "contact_messages" ("created_at", "id");`);
    this.addSql(
      `create index "contact_messages_status_created_at_index" on "contact_messages" ("status", "created_at");`,
    );
    this.addSql(
      `alter table "contact_messages" add constraint "contact_messages_resolved_by_id_foreign" foreign key ("resolved_by_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "contact_messages" cascade;`);
  }
}
