import { Migration } from '@mikro-orm/migrations';

/**
 * The guardian links in force, as the guardian area declares them for other areas to read (the reports to guardians go out over them) without reading its tables.
 */
export class Migration20261130000600_active_guardian_links_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create view active_guardian_links as select guardian_id, learner_id, activated_at from guardian_links where status = 'active';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists active_guardian_links;`);
  }
}
