import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020000_guardians_consent extends Migration {
  override async up(): Promise<void> {
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
    // The limits of the specification, held by the database whatever the requests race:
    // one open link per guardian and learner address, one primary guardian per learner.
    this.addSql(
      `create unique index "guardian_links_open_unique" on "guardian_links" ("guardian_id", "learner_email") where "status" <> 'revoked';`,
    );

    this.addSql(
      `create unique index "guardian_links_primary_unique" on "guardian_links" ("learner_id") where "primary";`,
    );

    this.addSql(`create index "guardian_links_learner_id_status_index" on "guardian_links" ("learner_id", "status");`);

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
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "guardian_link_transitions" drop constraint "guardian_link_transitions_link_id_foreign";`);

    this.addSql(`drop table if exists "learner_ai_access" cascade;`);

    this.addSql(`drop table if exists "guardian_links" cascade;`);

    this.addSql(`drop table if exists "guardian_link_transitions" cascade;`);
  }
}
