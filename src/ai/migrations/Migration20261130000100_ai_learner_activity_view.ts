import { Migration } from '@mikro-orm/migrations';

/**
 * The days learners talked to the AI tutor, as the AI area declares them for other areas to read:
 * the admin's active-learner figures count them without reading the AI's usage table.
 */
export class Migration20261130000100_ai_learner_activity_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create view ai_learner_activity as select user_id as learner_id, day from ai_usage where messages > 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists ai_learner_activity;`);
  }
}
