import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020000_guardians_consent extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "country_policies" ("country" char(2) not null, "region" text not null, "guardian_consent_age" smallint not null, "child_consent_age" smallint null, "ai_guardian_consent_age" smallint not null, "data_residency" text null, "rules" text[] not null, "version" int not null default 1, "updated_at" timestamptz not null, constraint "country_policies_pkey" primary key ("country"));`,
    );

    this.addSql(
      `create table "learner_ai_access" ("learner_id" uuid not null, "enabled" boolean not null default true, "memory_enabled" boolean not null default true, "daily_message_limit" int null, "updated_by_id" uuid null, "updated_at" timestamptz not null, constraint "learner_ai_access_pkey" primary key ("learner_id"));`,
    );

    this.addSql(
      `create table "guardian_links" ("id" uuid not null, "guardian_id" uuid not null, "learner_id" uuid null, "learner_email" text not null, "status" text check ("status" in ('pending', 'active', 'revoked')) not null default 'pending', "primary" boolean not null default false, "confirm_token_hash" text null, "created_at" timestamptz not null, "activated_at" timestamptz null, "revoked_at" timestamptz null, constraint "guardian_links_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "guardian_links_learner_email_index" on "guardian_links" ("learner_email");`);
    this.addSql(
      `create index "guardian_links_guardian_id_created_at_index" on "guardian_links" ("guardian_id", "created_at");`,
    );

    this.addSql(
      `create table "guardian_link_transitions" ("id" uuid not null, "link_id" uuid not null, "status" text check ("status" in ('pending', 'active', 'revoked')) not null, "actor_id" uuid null, "created_at" timestamptz not null, constraint "guardian_link_transitions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "guardian_link_transitions_link_id_created_at_index" on "guardian_link_transitions" ("link_id", "created_at");`,
    );

    this.addSql(
      `create table "country_policy_changes" ("id" uuid not null, "country" char(2) not null, "author_id" uuid null, "before" jsonb not null, "after" jsonb not null, "version" int not null, "created_at" timestamptz not null, constraint "country_policy_changes_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "country_policy_changes_country_created_at_index" on "country_policy_changes" ("country", "created_at");`,
    );

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

    // The limits of the specification, held by the database whatever the requests race:
    // one open link per guardian and learner address, one primary guardian per learner.
    this.addSql(
      `create unique index "guardian_links_open_unique" on "guardian_links" ("guardian_id", "learner_email") where "status" <> 'revoked';`,
    );
    this.addSql(
      `create unique index "guardian_links_primary_unique" on "guardian_links" ("learner_id") where "primary";`,
    );
    this.addSql(`create index "guardian_links_learner_id_status_index" on "guardian_links" ("learner_id", "status");`);

    // The consent ledger is append-only: what was granted or revoked stays as it was written.
    this.addSql(
      `create function consent_ledger_append_only() returns trigger language plpgsql as $$ begin raise exception 'the consent ledger is append-only'; end $$;`,
    );
    this.addSql(
      `create trigger consent_ledger_append_only before update or delete on "consent_ledger" for each row when (pg_trigger_depth() = 0) execute function consent_ledger_append_only();`,
    );

    this.addSql(
      `alter table "learner_ai_access" add constraint "learner_ai_access_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "learner_ai_access" add constraint "learner_ai_access_updated_by_id_foreign" foreign key ("updated_by_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "guardian_links" add constraint "guardian_links_guardian_id_foreign" foreign key ("guardian_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "guardian_links" add constraint "guardian_links_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "guardian_link_transitions" add constraint "guardian_link_transitions_link_id_foreign" foreign key ("link_id") references "guardian_links" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "guardian_link_transitions" add constraint "guardian_link_transitions_actor_id_foreign" foreign key ("actor_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "country_policy_changes" add constraint "country_policy_changes_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete set null;`,
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
    this.addSql(`alter table "guardian_link_transitions" drop constraint "guardian_link_transitions_link_id_foreign";`);

    this.addSql(`drop table if exists "country_policies" cascade;`);

    this.addSql(`drop table if exists "learner_ai_access" cascade;`);

    this.addSql(`drop table if exists "guardian_links" cascade;`);

    this.addSql(`drop table if exists "guardian_link_transitions" cascade;`);

    this.addSql(`drop table if exists "country_policy_changes" cascade;`);

    this.addSql(`drop table if exists "consent_ledger" cascade;`);

    this.addSql(`drop table if exists "consents" cascade;`);
  }
}
