import { Migration } from '@mikro-orm/migrations';
import { createdBefore } from '../../kernel/migration-parts';

/**
 * The progress area's tables, once created by Migration20261122040000_learning with other areas'
 * tables: a database that ran it under that name has them (createdBefore), a new one gets them here.
 */
export class Migration20261122040000_learning_progress extends Migration {
  override async up(): Promise<void> {
    if (await createdBefore(this, 'lesson_completions')) return;
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
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "quiz_attempts" drop constraint "quiz_attempts_course_id_foreign";`);

    this.addSql(`alter table "lesson_completions" drop constraint "lesson_completions_course_id_foreign";`);

    this.addSql(`alter table "quiz_attempts" drop constraint "quiz_attempts_lesson_id_foreign";`);

    this.addSql(`alter table "lesson_completions" drop constraint "lesson_completions_lesson_id_foreign";`);

    this.addSql(`drop table if exists "quiz_attempts" cascade;`);

    this.addSql(`drop table if exists "lesson_completions" cascade;`);
  }
}
