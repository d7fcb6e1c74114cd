import { Migration } from '@mikro-orm/migrations';

/**
 * The guardian report toggles move into the notification settings (docs/domain.md#privacy-operations: `PUT
 * /notifications/settings`), with what guardians had already chosen; their old table goes in the
 * guardian reports' next migration.
 */
export class Migration20261123150000_report_toggles extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "notification_settings" add column "weekly_report" boolean not null default true, add column "monthly_report" boolean not null default true, add column "inactivity_alert" boolean not null default true;`,
    );
    this.addSql(
      `insert into "notification_settings" ("user_id", "disabled_types", "weekly_report", "monthly_report", "inactivity_alert", "updated_at")
       select "guardian_id", '{}', "weekly_report", "monthly_report", "inactivity_alert", "updated_at" from "guardian_report_settings"
       on conflict ("user_id") do update set "weekly_report" = excluded."weekly_report", "monthly_report" = excluded."monthly_report", "inactivity_alert" = excluded."inactivity_alert";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "notification_settings" drop column "weekly_report", drop column "monthly_report", drop column "inactivity_alert";`,
    );
  }
}
