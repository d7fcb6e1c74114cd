import { Migration } from '@mikro-orm/migrations';

/** Schools, their staff, classes with join codes, class members and course assignments. */
export class Migration20261123130000_schools extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "schools" ("id" uuid not null, "name" text not null, "country" char(2) not null, "created_by_id" uuid null constraint "schools_created_by_id_foreign" references "users" ("id") on update cascade on delete set null, "created_at" timestamptz not null, constraint "schools_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "school_members" ("id" uuid not null, "school_id" uuid not null constraint "school_members_school_id_foreign" references "schools" ("id") on update cascade on delete cascade, "user_id" uuid not null constraint "school_members_user_id_foreign" references "users" ("id") on update cascade on delete cascade, "role" text check ("role" in ('school_admin', 'teacher')) not null, "created_at" timestamptz not null, constraint "school_members_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "school_members" add constraint "school_members_school_id_user_id_unique" unique ("school_id", "user_id");`,
    );
    this.addSql(`create index "school_members_user_id_index" on "school_members" ("user_id");`);

    this.addSql(
      `create table "school_classes" ("id" uuid not null, "school_id" uuid not null constraint "school_classes_school_id_foreign" references "schools" ("id") on update cascade on delete cascade, "name" text not null, "join_code" text not null, "created_by_id" uuid null constraint "school_classes_created_by_id_foreign" references "users" ("id") on update cascade on delete set null, "code_rotated_at" timestamptz not null, "created_at" timestamptz not null, constraint "school_classes_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "school_classes" add constraint "school_classes_join_code_unique" unique ("join_code");`);
    this.addSql(`create index "school_classes_school_id_index" on "school_classes" ("school_id");`);

    this.addSql(
      `create table "class_members" ("id" uuid not null, "school_class_id" uuid not null constraint "class_members_school_class_id_foreign" references "school_classes" ("id") on update cascade on delete cascade, "learner_id" uuid not null constraint "class_members_learner_id_foreign" references "users" ("id") on update cascade on delete cascade, "joined_at" timestamptz not null, constraint "class_members_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "class_members" add constraint "class_members_school_class_id_learner_id_unique" unique ("school_class_id", "learner_id");`,
    );
    this.addSql(`create index "class_members_learner_id_index" on "class_members" ("learner_id");`);

    this.addSql(
      `create table "class_courses" ("id" uuid not null, "school_class_id" uuid not null constraint "class_courses_school_class_id_foreign" references "school_classes" ("id") on update cascade on delete cascade, "course_id" uuid not null constraint "class_courses_course_id_foreign" references "courses" ("id") on update cascade on delete cascade, "assigned_by_id" uuid null constraint "class_courses_assigned_by_id_foreign" references "users" ("id") on update cascade on delete set null, "assigned_at" timestamptz not null, constraint "class_courses_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "class_courses" add constraint "class_courses_school_class_id_course_id_unique" unique ("school_class_id", "course_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "class_courses" cascade;`);
    this.addSql(`drop table if exists "class_members" cascade;`);
    this.addSql(`drop table if exists "school_classes" cascade;`);
    this.addSql(`drop table if exists "school_members" cascade;`);
    this.addSql(`drop table if exists "schools" cascade;`);
  }
}
