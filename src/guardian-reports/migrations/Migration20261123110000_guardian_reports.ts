import { Migration } from '@mikro-orm/migrations';

/** Guardian report mails (one row per guardian, learner, kind and period: the claim that makes them exactly once) and their toggles. */
export class Migration20261123110000_guardian_reports extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "guardian_reports" ("id" uuid not null, "guardian_id" uuid not null, "learner_id" uuid not null, "kind" text check ("kind" in ('weekly', 'monthly', 'inactivity')) not null, "period" text not null, "status" text not null default 'sending', "activity_count" integer not null default 0, "sent_at" timestamptz null, "created_at" timestamptz not null, constraint "guardian_reports_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "guardian_reports" add constraint "guardian_reports_guardian_id_learner_id_kind_period_unique" unique ("guardian_id", "learner_id", "kind", "period");`,
    );
    this.addSql(
      `create index "guardian_reports_guardian_id_created_at_id_index" on "guardian_reports" ("guardian_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "guardian_reports" add constraint "guardian_reports_guardian_id_foreign" foreign key ("guardian_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "guardian_reports" add constraint "guardian_reports_learner_id_foreign" foreign key ("learner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create table "guardian_report_settings" ("guardian_id" uuid not null, "weekly_report" boolean not null default true, "monthly_report" boolean not null default true, "inactivity_alert" boolean not null default true, "updated_at" timestamptz not null, constraint "guardian_report_settings_pkey" primary key ("guardian_id"));`,
    );
    this.addSql(
      `alter table "guardian_report_settings" add constraint "guardian_report_settings_guardian_id_foreign" foreign key ("guardian_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "guardian_report_settings" cascade;`);
    this.addSql(`drop table if exists "guardian_reports" cascade;`);
  }
}
