import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030000_ai_usage extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "ai_usage" ("user_id" uuid not null, "day" date not null, "messages" int not null default 0, "tokens" bigint not null default 0, constraint "ai_usage_pkey" primary key ("user_id", "day"));`,
    );
    this.addSql(
      `alter table "ai_usage" add constraint "ai_usage_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ai_usage" cascade;`);
  }
}
