import { Migration } from '@mikro-orm/migrations';

/** The transactional outbox (src/kernel/outbox.ts): effects written with the change that causes them. */
export class Migration20261125000000_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "outbox" ("id" bigserial primary key, "kind" text not null, "name" text not null, "payload" jsonb not null, "attempts" integer not null default 0, "available_at" timestamptz not null default now(), "failed_at" timestamptz null, "last_error" text null, "created_at" timestamptz not null default now());`,
    );
    // What the relay claims: due rows in the order they were written.
    this.addSql(`create index "outbox_due_index" on "outbox" ("available_at", "id") where "failed_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "outbox";`);
  }
}
