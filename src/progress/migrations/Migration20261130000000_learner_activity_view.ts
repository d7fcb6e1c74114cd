import { Migration } from '@mikro-orm/migrations';

/**
 * When learners did something in their courses (a lesson completed, a quiz tried), as the progress
 * area declares it for other areas to read: the admin's active-learner figures count it without
 * reading progress's tables.
 */
export class Migration20261130000000_learner_activity_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create view learner_activity as
      select learner_id, completed_at as at from lesson_completions
      union all select learner_id, created_at from quiz_attempts;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists learner_activity;`);
  }
}
