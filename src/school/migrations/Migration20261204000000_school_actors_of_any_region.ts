import { Migration } from '@mikro-orm/migrations';

/**
 * A school's rows are kept in its country's region's database, but who made a school, a class or an
 * assignment may be an account of another region (a platform admin is global's): their ids name
 * accounts that this database does not hold, so they can no longer be foreign keys to its users.
 */
export class Migration20261204000000_school_actors_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "schools" drop constraint if exists "schools_created_by_id_foreign";`);
    this.addSql(`alter table "school_classes" drop constraint if exists "school_classes_created_by_id_foreign";`);
    this.addSql(`alter table "class_courses" drop constraint if exists "class_courses_assigned_by_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "schools" add constraint "schools_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "school_classes" add constraint "school_classes_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "class_courses" add constraint "class_courses_assigned_by_id_foreign" foreign key ("assigned_by_id") references "users" ("id") on update cascade on delete set null;`,
    );
  }
}
