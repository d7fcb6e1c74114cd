import { Migration } from '@mikro-orm/migrations';

/** The audit trail of privileged actions, and the `suspended` account status. */
export class Migration20261123100000_audit_suspension extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_entries" ("id" uuid not null, "actor_id" uuid null, "action" text not null, "target_type" text null, "target_id" text null, "data" jsonb not null default '{}', "created_at" timestamptz not null, constraint "audit_entries_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_entries_created_at_id_index" on "audit_entries" ("created_at", "id");`);
    this.addSql(`create index "audit_entries_action_created_at_index" on "audit_entries" ("action", "created_at");`);
    this.addSql(
      `create index "audit_entries_target_id_created_at_index" on "audit_entries" ("target_id", "created_at");`,
    );
    this.addSql(
      `create index "audit_entries_actor_id_created_at_index" on "audit_entries" ("actor_id", "created_at");`,
    );
    this.addSql(
      `alter table "audit_entries" add constraint "audit_entries_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(`alter table "users" drop constraint if exists "users_status_check";`);
    this.addSql(
      `alter table "users" add constraint "users_status_check" check ("status" in ('active', 'pending_guardian', 'suspended'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`update "users" set "status" = 'active' where "status" = 'suspended';`);
    this.addSql(`alter table "users" drop constraint if exists "users_status_check";`);
    this.addSql(
      `alter table "users" add constraint "users_status_check" check ("status" in ('active', 'pending_guardian'));`,
    );
    this.addSql(`drop table if exists "audit_entries" cascade;`);
  }
}
