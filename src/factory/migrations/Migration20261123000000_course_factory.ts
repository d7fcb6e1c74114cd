import { Migration } from '@mikro-orm/migrations';

/**
 * The course factory: generations, their five stages and their lessons, and the job table of
 * Agenda's Postgres backend (created here rather than by Agenda at start-up, so the schema has one
 * owner and a running instance never needs DDL rights).
 */
export class Migration20261123000000_course_factory extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "course_generations" ("id" uuid not null, "topic" text not null, "level" text not null, "min_age" smallint not null, "max_age" smallint not null, "lesson_count" smallint not null, "status" text check ("status" in ('queued', 'running', 'awaiting_approval', 'flagged', 'failed', 'approved', 'rejected')) not null default 'queued', "current_stage" text check ("current_stage" in ('research', 'outline', 'content', 'quiz', 'safety')) null, "progress" smallint not null default 0 check ("progress" between 0 and 100), "round" integer not null default 0, "error" text null, "requested_by_id" uuid not null, "decided_by_id" uuid null, "decided_at" timestamptz null, "course_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "course_generations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "course_generations_created_at_id_index" on "course_generations" ("created_at", "id");`);
    this.addSql(
      `alter table "course_generations" add constraint "course_generations_course_id_unique" unique ("course_id");`,
    );
    this.addSql(
      `alter table "course_generations" add constraint "course_generations_requested_by_id_foreign" foreign key ("requested_by_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "course_generations" add constraint "course_generations_decided_by_id_foreign" foreign key ("decided_by_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `create table "generation_stages" ("id" uuid not null, "generation_id" uuid not null, "name" text check ("name" in ('research', 'outline', 'content', 'quiz', 'safety')) not null, "position" smallint not null, "status" text check ("status" in ('pending', 'running', 'done', 'failed')) not null default 'pending', "attempts" smallint not null default 0, "started_at" timestamptz null, "finished_at" timestamptz null, "error" text null, "output" jsonb null, "provider_ms" integer not null default 0, constraint "generation_stages_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "generation_stages" add constraint "generation_stages_generation_id_name_unique" unique ("generation_id", "name");`,
    );
    this.addSql(
      `alter table "generation_stages" add constraint "generation_stages_generation_id_foreign" foreign key ("generation_id") references "course_generations" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "generation_lessons" ("id" uuid not null, "generation_id" uuid not null, "position" smallint not null, "title" jsonb not null, "objectives" jsonb not null, "content" jsonb null, "quiz" jsonb null, "findings" jsonb not null default '[]', "flagged" boolean not null default false, "revision" smallint not null default 0, constraint "generation_lessons_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "generation_lessons" add constraint "generation_lessons_generation_id_position_unique" unique ("generation_id", "position");`,
    );
    this.addSql(
      `alter table "generation_lessons" add constraint "generation_lessons_generation_id_foreign" foreign key ("generation_id") references "course_generations" ("id") on update cascade on delete cascade;`,
    );

    // @agendajs/postgres-backend 3.0.6's schema (getCreateTableSQL, getCreateIndexesSQL).
    this.addSql(
      `create table "agenda_jobs" (id uuid primary key default gen_random_uuid(), name varchar(255) not null, priority integer not null default 0, next_run_at timestamptz, type varchar(10) not null default 'normal' check (type in ('normal', 'single')), locked_at timestamptz, last_finished_at timestamptz, failed_at timestamptz, fail_count integer default null, fail_reason text, repeat_timezone varchar(100), last_run_at timestamptz, repeat_interval varchar(255), data jsonb default '{}'::jsonb, repeat_at varchar(255), disabled boolean default false, progress real, fork boolean default false, last_modified_by varchar(255), debounce_started_at timestamptz, start_date timestamptz, end_date timestamptz, skip_days jsonb, created_at timestamptz default now(), updated_at timestamptz default now());`,
    );
    this.addSql(
      `create index "agenda_jobs_find_and_lock_idx" on "agenda_jobs" (name, next_run_at, priority desc, locked_at, disabled) where disabled = false;`,
    );
    this.addSql(`create unique index "agenda_jobs_single_job_idx" on "agenda_jobs" (name) where type = 'single';`);
    this.addSql(`create index "agenda_jobs_locked_at_idx" on "agenda_jobs" (locked_at) where locked_at is not null;`);
    this.addSql(
      `create index "agenda_jobs_next_run_at_idx" on "agenda_jobs" (next_run_at) where next_run_at is not null;`,
    );
    // The key the factory's jobs are made unique by (one job per generation, round, stage).
    this.addSql(`create index "agenda_jobs_data_key_idx" on "agenda_jobs" (name, (data->>'key'));`);
    this.addSql(
      `create function update_agenda_jobs_updated_at() returns trigger as $$ begin new.updated_at = now(); return new; end; $$ language plpgsql;`,
    );
    this.addSql(
      `create trigger "agenda_jobs_updated_at_trigger" before update on "agenda_jobs" for each row execute function update_agenda_jobs_updated_at();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agenda_jobs" cascade;`);
    this.addSql(`drop function if exists update_agenda_jobs_updated_at();`);
    this.addSql(`drop table if exists "generation_lessons" cascade;`);
    this.addSql(`drop table if exists "generation_stages" cascade;`);
    this.addSql(`drop table if exists "course_generations" cascade;`);
  }
}
