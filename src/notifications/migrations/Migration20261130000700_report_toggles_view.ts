import { Migration } from '@mikro-orm/migrations';

/**
 * Which reports each person asked for in their notification settings, as the notifications area declares it for the reports' area to read without reading its settings table.
 */
export class Migration20261130000700_report_toggles_view extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create view report_toggles as select user_id, weekly_report, monthly_report, inactivity_alert from notification_settings;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists report_toggles;`);
  }
}
