import { Migration } from '@mikro-orm/migrations';

/** Feature flags with their targeting rules. */
export class Migration20261123120000_feature_flags extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "feature_flags" ("key" text not null, "description" text not null default '', "enabled" boolean not null default false, "rules" jsonb not null default '[]', "updated_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "feature_flags_pkey" primary key ("key"));`,
    );
    this.addSql(
      `alter table "feature_flags" add constraint "feature_flags_updated_by_id_foreign" foreign key ("updated_by_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "feature_flags" cascade;`);
  }
}
