import { Migration } from '@mikro-orm/migrations';

/** The best result of each learner on each CodeLab exercise, for their progress. */
export class Migration20261123160000_exercise_results extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "exercise_results" ("id" uuid not null, "learner_id" uuid not null, "exercise_id" uuid not null, "course_id" uuid null, "lesson_id" uuid null, "best_score" smallint not null, "accepted" boolean not null, "updated_at" timestamptz not null, constraint "exercise_results_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "exercise_results_learner_id_course_id_index" on "exercise_results" ("learner_id", "course_id");`,
    );
    this.addSql(
      `alter table "exercise_results" add constraint "exercise_results_learner_id_exercise_id_unique" unique ("learner_id", "exercise_id");`,
    );
    this.addSql(
      `alter table "exercise_results" add constraint "exercise_results_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "exercise_results" cascade;`);
  }
}
