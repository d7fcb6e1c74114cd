import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040000_learning extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "courses" ("id" uuid not null, "title" jsonb not null, "description" jsonb not null, "level" text check ("level" in ('beginner', 'intermediate', 'advanced')) not null, "min_age" smallint not null, "max_age" smallint not null, "language" text not null, "pass_mark" smallint not null default 70, "published" boolean not null default false, "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "courses_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "courses_published_created_at_id_index" on "courses" ("published", "created_at", "id");`);

    this.addSql(
      `create table "lessons" ("id" uuid not null, "course_id" uuid not null, "position" smallint not null, "title" jsonb not null, "objectives" jsonb not null, "content" jsonb not null, "quiz" jsonb null, constraint "lessons_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "lessons" add constraint "lessons_course_id_position_unique" unique ("course_id", "position");`,
    );

    this.addSql(
      `create table "quiz_attempts" ("id" uuid not null, "learner_id" uuid not null, "lesson_id" uuid not null, "course_id" uuid not null, "answers" jsonb not null, "correct" smallint not null, "total" smallint not null, "score" smallint not null, "created_at" timestamptz not null, constraint "quiz_attempts_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "quiz_attempts_learner_id_course_id_index" on "quiz_attempts" ("learner_id", "course_id");`,
    );

    this.addSql(
      `create table "lesson_completions" ("id" uuid not null, "learner_id" uuid not null, "lesson_id" uuid not null, "course_id" uuid not null, "time_spent_seconds" int not null default 0, "completed_at" timestamptz not null, constraint "lesson_completions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "lesson_completions_learner_id_course_id_index" on "lesson_completions" ("learner_id", "course_id");`,
    );
    this.addSql(
      `alter table "lesson_completions" add constraint "lesson_completions_learner_id_lesson_id_unique" unique ("learner_id", "lesson_id");`,
    );

    this.addSql(
      `create table "enrollments" ("id" uuid not null, "learner_id" uuid not null, "course_id" uuid not null, "created_at" timestamptz not null, constraint "enrollments_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "enrollments" add constraint "enrollments_learner_id_course_id_unique" unique ("learner_id", "course_id");`,
    );

    this.addSql(
      `create table "certificates" ("id" uuid not null, "learner_id" uuid not null, "course_id" uuid not null, "code" text not null, "average_score" smallint not null, "issued_at" timestamptz not null, constraint "certificates_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "certificates" add constraint "certificates_code_unique" unique ("code");`);
    this.addSql(
      `alter table "certificates" add constraint "certificates_learner_id_course_id_unique" unique ("learner_id", "course_id");`,
    );
    this.addSql(`create index "enrollments_course_id_index" on "enrollments" ("course_id");`);
    this.addSql(`create index "courses_catalog_index" on "courses" ("created_at" desc, "id" desc) where "published";`);

    this.addSql(
      `alter table "courses" add constraint "courses_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "lessons" add constraint "lessons_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "quiz_attempts" add constraint "quiz_attempts_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "quiz_attempts" add constraint "quiz_attempts_lesson_id_foreign" foreign key ("lesson_id") references "lessons" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "quiz_attempts" add constraint "quiz_attempts_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "lesson_completions" add constraint "lesson_completions_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "lesson_completions" add constraint "lesson_completions_lesson_id_foreign" foreign key ("lesson_id") references "lessons" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "lesson_completions" add constraint "lesson_completions_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "enrollments" add constraint "enrollments_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "enrollments" add constraint "enrollments_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "certificates" add constraint "certificates_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "certificates" add constraint "certificates_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "lessons" drop constraint "lessons_course_id_foreign";`);

    this.addSql(`alter table "quiz_attempts" drop constraint "quiz_attempts_course_id_foreign";`);

    this.addSql(`alter table "lesson_completions" drop constraint "lesson_completions_course_id_foreign";`);

    this.addSql(`alter table "enrollments" drop constraint "enrollments_course_id_foreign";`);

    this.addSql(`alter table "certificates" drop constraint "certificates_course_id_foreign";`);

    this.addSql(`alter table "quiz_attempts" drop constraint "quiz_attempts_lesson_id_foreign";`);

    this.addSql(`alter table "lesson_completions" drop constraint "lesson_completions_lesson_id_foreign";`);

    this.addSql(`drop table if exists "courses" cascade;`);

    this.addSql(`drop table if exists "lessons" cascade;`);

    this.addSql(`drop table if exists "quiz_attempts" cascade;`);

    this.addSql(`drop table if exists "lesson_completions" cascade;`);

    this.addSql(`drop table if exists "enrollments" cascade;`);

    this.addSql(`drop table if exists "certificates" cascade;`);
  }
}
