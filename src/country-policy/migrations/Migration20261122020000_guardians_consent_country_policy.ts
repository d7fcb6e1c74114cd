import { Migration } from '@mikro-orm/migrations';
import { createdBefore } from '../../kernel/migration-parts';

/**
 * The country-policy area's tables, once created by Migration20261122020000_guardians_consent with
 * other areas' tables: a database that ran it under that name has them (createdBefore), a new one gets
 * them here.
 */
export class Migration20261122020000_guardians_consent_country_policy extends Migration {
  override async up(): Promise<void> {
    if (await createdBefore(this, 'country_policies')) return;
    this.addSql(
      `create table "country_policies" ("country" char(2) not null, "region" text not null, "guardian_consent_age" smallint not null, "child_consent_age" smallint null, "ai_guardian_consent_age" smallint not null, "data_residency" text null, "rules" text[] not null, "version" int not null default 1, "updated_at" timestamptz not null, constraint "country_policies_pkey" primary key ("country"));`,
    );

    this.addSql(
      `create table "country_policy_changes" ("id" uuid not null, "country" char(2) not null, "author_id" uuid null, "before" jsonb not null, "after" jsonb not null, "version" int not null, "created_at" timestamptz not null, constraint "country_policy_changes_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create index "country_policy_changes_country_created_at_index" on "country_policy_changes" ("country", "created_at");`,
    );

    this.addSql(
      `alter table "country_policy_changes" add constraint "country_policy_changes_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "country_policies" cascade;`);

    this.addSql(`drop table if exists "country_policy_changes" cascade;`);
  }
}
