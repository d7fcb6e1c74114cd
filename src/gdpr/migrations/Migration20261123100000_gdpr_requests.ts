import { Migration } from '@mikro-orm/migrations';

/**
 * Privacy requests (exports and erasures), and two account states: `deletion_pending` during the
 * grace period of an erasure and `erased` for the pseudonymous record left of an erased account.
 * `suspended` is allowed too, for the admin area's suspension. And the AI memory deletions that
 * revoking `ai_memory` asks of the AI backend, with their answers.
 */
export class Migration20261123100000_gdpr_requests extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "gdpr_requests" ("id" uuid not null, "kind" text check ("kind" in ('export', 'deletion')) not null, "status" text check ("status" in ('queued', 'running', 'ready', 'scheduled', 'completed', 'canceled', 'failed')) not null default 'queued', "subject_id" uuid not null, "requester_id" uuid null, "due_at" timestamptz null, "expires_at" timestamptz null, "completed_at" timestamptz null, "canceled_at" timestamptz null, "previous_status" text null, "progress" jsonb not null default '{"areas":{}}', "lease_until" timestamptz null, "attempts" integer not null default 0, "error" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "gdpr_requests_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "gdpr_requests_subject_id_created_at_id_index" on "gdpr_requests" ("subject_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "gdpr_requests_requester_id_created_at_id_index" on "gdpr_requests" ("requester_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "gdpr_requests_due_index" on "gdpr_requests" ("due_at") where "status" in ('scheduled', 'running') and "kind" = 'deletion';`,
    );
    // One erasure in progress per account: two requests at once cannot both schedule it.
    this.addSql(
      `create unique index "gdpr_requests_one_deletion_index" on "gdpr_requests" ("subject_id") where "kind" = 'deletion' and "status" in ('scheduled', 'running');`,
    );
    this.addSql(
      `alter table "gdpr_requests" add constraint "gdpr_requests_subject_id_foreign" foreign key ("subject_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "gdpr_requests" add constraint "gdpr_requests_requester_id_foreign" foreign key ("requester_id") references "users" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`alter table "users" drop constraint if exists "users_status_check";`);
    this.addSql(
      `alter table "users" add constraint "users_status_check" check ("status" in ('active', 'pending_guardian', 'suspended', 'deletion_pending', 'erased'));`,
    );
    this.addSql(
      `create table "ai_memory_deletions" ("ledger_entry_id" uuid not null, "subject_id" uuid not null, "status" text check ("status" in ('pending', 'done')) not null default 'pending', "attempts" integer not null default 0, "last_answer" text null, "last_error" text null, "next_attempt_at" timestamptz not null, "done_at" timestamptz null, "created_at" timestamptz not null, constraint "ai_memory_deletions_pkey" primary key ("ledger_entry_id"));`,
    );
    this.addSql(
      `create index "ai_memory_deletions_status_next_attempt_at_index" on "ai_memory_deletions" ("status", "next_attempt_at");`,
    );
    this.addSql(
      `alter table "ai_memory_deletions" add constraint "ai_memory_deletions_subject_id_foreign" foreign key ("subject_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "ai_memory_deletions" cascade;`);
    this.addSql(`drop table if exists "gdpr_requests" cascade;`);
    this.addSql(`alter table "users" drop constraint if exists "users_status_check";`);
    this.addSql(
      `alter table "users" add constraint "users_status_check" check ("status" in ('active', 'pending_guardian'));`,
    );
  }
}
