import { Migration } from '@mikro-orm/migrations';
import { createdBefore } from '../../kernel/migration-parts';

/**
 * The admin area's tables, once created by Migration20261122000000_accounts with other areas' tables:
 * a database that ran it under that name has them (createdBefore), a new one gets them here.
 */
export class Migration20261122000000_accounts_role_changes extends Migration {
  override async up(): Promise<void> {
    if (await createdBefore(this, 'role_changes')) return;
    this.addSql(
      `create table "role_changes" ("id" uuid not null, "user_id" uuid not null, "actor_id" uuid null, "role" text check ("role" in ('learner', 'guardian', 'admin', 'content_admin', 'creator')) not null, "action" text check ("action" in ('granted', 'removed')) not null, "created_at" timestamptz not null, constraint "role_changes_pkey" primary key ("id"));`,
    );

    this.addSql(`create index "role_changes_user_id_created_at_index" on "role_changes" ("user_id", "created_at");`);

    this.addSql(
      `alter table "role_changes" add constraint "role_changes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "role_changes" add constraint "role_changes_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "role_changes" cascade;`);
  }
}
