import { Migration } from '@mikro-orm/migrations';

/** The report toggles live in the notification settings now (copied there by Migration20261123150000_report_toggles). */
export class Migration20261123150100_drop_report_settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop table if exists "guardian_report_settings";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `create table "guardian_report_settings" ("guardian_id" uuid not null, "weekly_report" boolean not null default true, "monthly_report" boolean not null default true, "inactivity_alert" boolean not null default true, "updated_at" timestamptz not null, constraint "guardian_report_settings_pkey" primary key ("guardian_id"));`,
    );
    this.addSql(
      `alter table "guardian_report_settings" add constraint "guardian_report_settings_guardian_id_foreign" foreign key ("guardian_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `insert into "guardian_report_settings" select "user_id", "weekly_report", "monthly_report", "inactivity_alert", "updated_at" from "notification_settings" where not ("weekly_report" and "monthly_report" and "inactivity_alert");`,
    );
  }
}
