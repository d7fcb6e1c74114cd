import { Migration } from '@mikro-orm/migrations';
import { createdBefore } from '../../kernel/migration-parts';

/**
 * The consent area's tables, once created by Migration20261122020000_guardians_consent with other
 * areas' tables: a database that ran it under that name has them (createdBefore), a new one gets them
 * here.
 */
export class Migration20261122020000_guardians_consent_consent extends Migration {
  override async up(): Promise<void> {
    if (await createdBefore(this, 'consents')) return;
    this.addSql(
      `create table "consent_ledger" ("id" uuid not null, "subject_id" uuid not null, "type" text check ("type" in ('basic_data', 'ai_conversation', 'ai_memory', 'marketing_email', 'progress_sharing')) not null, "action" text check ("action" in ('granted', 'revoked')) not null, "actor_id" uuid null, "actor_role" text check ("actor_role" in ('self', 'guardian')) not null, "country" char(2) not null, "policy_version" int not null, "created_at" timestamptz not null, constraint "consent_ledger_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create index "consent_ledger_subject_id_created_at_index" on "consent_ledger" ("subject_id", "created_at");`,
    );

    this.addSql(
      `create table "consents" ("id" uuid not null, "subject_id" uuid not null, "type" text check ("type" in ('basic_data', 'ai_conversation', 'ai_memory', 'marketing_email', 'progress_sharing')) not null, "guardian_granted_by_id" uuid null, "guardian_granted_at" timestamptz null, "own_granted_at" timestamptz null, "policy_version" int not null, "updated_at" timestamptz not null, constraint "consents_pkey" primary key ("id"));`,
    );

    this.addSql(
      `alter table "consents" add constraint "consents_subject_id_type_unique" unique ("subject_id", "type");`,
    );
    // The consent ledger is append-only: what was granted or revoked stays as it was written.
    this.addSql(
      `create function consent_ledger_append_only() returns trigger language plpgsql as $$ begin raise exception 'the consent ledger is append-only'; end $$;`,
    );

    this.addSql(
      `create trigger consent_ledger_append_only before update or delete on "consent_ledger" for each row when (pg_trigger_depth() = 0) execute function consent_ledger_append_only();`,
    );

    this.addSql(
      `alter table "consent_ledger" add constraint "consent_ledger_subject_id_foreign" foreign key ("subject_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "consent_ledger" add constraint "consent_ledger_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "consents" add constraint "consents_subject_id_foreign" foreign key ("subject_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "consents" add constraint "consents_guardian_granted_by_id_foreign" foreign key ("guardian_granted_by_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists consent_ledger_append_only() cascade;`);

    this.addSql(`drop table if exists "consent_ledger" cascade;`);

    this.addSql(`drop table if exists "consents" cascade;`);
  }
}
