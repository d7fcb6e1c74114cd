import { Migration } from '@mikro-orm/migrations';

/**
 * Courses' titles, as the courses area declares them for other areas to read (a certificate list shows them) without reading the courses table.
 */
export class Migration20261130000500_course_titles_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create view course_titles as select id, title from courses;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists course_titles;`);
  }
}
