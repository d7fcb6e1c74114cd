import { Migration } from '@mikro-orm/migrations';
import { STARTER_EXERCISES } from '../codelab.starter';

const literal = (value: unknown) =>
  `'${(typeof value === 'string' ? value : JSON.stringify(value)).replace(/'/g, "''")}'`;

/** CodeLab: exercises (with the starter set), submissions, projects and portfolios. */
export class Migration20261123100000_codelab extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "codelab_exercises" ("id" uuid not null, "slug" text null, "title" jsonb not null, "prompt" jsonb not null, "language" text not null, "starter_code" text not null default '', "difficulty" text not null, "course_id" uuid null, "lesson_id" uuid null, "tests" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "codelab_exercises_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "codelab_exercises" add constraint "codelab_exercises_slug_unique" unique ("slug");`);
    this.addSql(`create index "codelab_exercises_created_at_id_index" on "codelab_exercises" ("created_at", "id");`);

    this.addSql(
      `create table "codelab_submissions" ("id" uuid not null, "exercise_id" uuid not null, "user_id" uuid not null, "code" text not null, "status" text not null default 'queued', "verdict" text null, "score" smallint not null default 0, "results" jsonb not null, "created_at" timestamptz not null, "finished_at" timestamptz null, constraint "codelab_submissions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "codelab_submissions_user_id_created_at_id_index" on "codelab_submissions" ("user_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "codelab_submissions" add constraint "codelab_submissions_exercise_id_foreign" foreign key ("exercise_id") references "codelab_exercises" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "codelab_submissions" add constraint "codelab_submissions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "codelab_projects" ("id" uuid not null, "owner_id" uuid not null, "title" text not null, "description" text not null default '', "language" text not null, "files" jsonb not null, "visibility" text not null default 'private', "remix_of" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "codelab_projects_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "codelab_projects_owner_id_created_at_id_index" on "codelab_projects" ("owner_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "codelab_projects" add constraint "codelab_projects_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "codelab_portfolios" ("id" uuid not null, "user_id" uuid not null, "handle" text not null, "headline" text not null default '', "bio" text not null default '', "project_ids" jsonb not null, "certificate_ids" jsonb not null, "visibility" text not null default 'private', "updated_at" timestamptz not null, constraint "codelab_portfolios_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "codelab_portfolios" add constraint "codelab_portfolios_user_id_unique" unique ("user_id");`,
    );
    this.addSql(
      `alter table "codelab_portfolios" add constraint "codelab_portfolios_handle_unique" unique ("handle");`,
    );
    this.addSql(
      `alter table "codelab_portfolios" add constraint "codelab_portfolios_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    for (const e of STARTER_EXERCISES) {
      this.addSql(
        `insert into "codelab_exercises" ("id", "slug", "title", "prompt", "language", "starter_code", "difficulty", "course_id", "lesson_id", "tests", "created_at", "updated_at") values (gen_random_uuid(), ${literal(e.slug)}, ${literal(e.title)}, ${literal(e.prompt)}, ${literal(e.language)}, ${literal(e.starterCode)}, ${literal(e.difficulty)}, null, null, ${literal(e.tests)}, now(), now());`,
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "codelab_portfolios" cascade;`);
    this.addSql(`drop table if exists "codelab_projects" cascade;`);
    this.addSql(`drop table if exists "codelab_submissions" cascade;`);
    this.addSql(`drop table if exists "codelab_exercises" cascade;`);
  }
}
