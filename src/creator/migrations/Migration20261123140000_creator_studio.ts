import { Migration } from '@mikro-orm/migrations';

/** The creator studio: hand-written course drafts, their lessons, and messages to learners. */
export class Migration20261123140000_creator_studio extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "creator_courses" ("id" uuid not null, "creator_id" uuid not null constraint "creator_courses_creator_id_foreign" references "users" ("id") on update cascade on delete cascade, "title" jsonb not null, "description" jsonb not null, "level" text check ("level" in ('beginner', 'intermediate', 'advanced')) not null, "min_age" smallint not null, "max_age" smallint not null, "language" text not null default 'vi', "status" text check ("status" in ('draft', 'in_review', 'rejected', 'published')) not null default 'draft', "findings" jsonb not null default '[]', "review_reason" text null, "reviewed_by_id" uuid null constraint "creator_courses_reviewed_by_id_foreign" references "users" ("id") on update cascade on delete set null, "reviewed_at" timestamptz null, "submitted_at" timestamptz null, "course_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "creator_courses_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "creator_courses_creator_id_created_at_index" on "creator_courses" ("creator_id", "created_at");`,
    );
    this.addSql(
      `create index "creator_courses_status_updated_at_index" on "creator_courses" ("status", "updated_at");`,
    );
    this.addSql(
      `create table "creator_lessons" ("id" uuid not null, "draft_id" uuid not null constraint "creator_lessons_draft_id_foreign" references "creator_courses" ("id") on update cascade on delete cascade, "position" smallint not null, "title" jsonb not null, "objectives" jsonb not null, "content" jsonb not null, "quiz" jsonb null, constraint "creator_lessons_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "creator_lessons" add constraint "creator_lessons_draft_id_position_unique" unique ("draft_id", "position");`,
    );
    this.addSql(
      `create table "creator_messages" ("id" uuid not null, "creator_id" uuid not null constraint "creator_messages_creator_id_foreign" references "users" ("id") on update cascade on delete cascade, "draft_id" uuid not null constraint "creator_messages_draft_id_foreign" references "creator_courses" ("id") on update cascade on delete cascade, "title" text not null, "body" text not null, "recipients" integer not null, "created_at" timestamptz not null, constraint "creator_messages_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "creator_messages_creator_id_created_at_index" on "creator_messages" ("creator_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "creator_messages" cascade;`);
    this.addSql(`drop table if exists "creator_lessons" cascade;`);
    this.addSql(`drop table if exists "creator_courses" cascade;`);
  }
}
