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
      `create table "enrollments" ("id" uuid not null, "learner_id" uuid not null, "course_id" uuid not null, "created_at" timestamptz not null, constraint "enrollments_pkey" primary key ("id"));`,
    );

    this.addSql(
      `alter table "enrollments" add constraint "enrollments_learner_id_course_id_unique" unique ("learner_id", "course_id");`,
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
      `alter table "enrollments" add constraint "enrollments_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "enrollments" add constraint "enrollments_course_id_foreign" foreign key ("course_id") references "courses" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "lessons" drop constraint "lessons_course_id_foreign";`);

    this.addSql(`alter table "enrollments" drop constraint "enrollments_course_id_foreign";`);

    this.addSql(`drop table if exists "courses" cascade;`);

    this.addSql(`drop table if exists "lessons" cascade;`);

    this.addSql(`drop table if exists "enrollments" cascade;`);
  }
}
