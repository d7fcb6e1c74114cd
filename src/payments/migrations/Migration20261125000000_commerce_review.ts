import { Migration } from '@mikro-orm/migrations';

/**
 * Payments are found by the provider's charge (disputes name only that). Commerce records its money-changing actions in the platform's audit trail (`audit_entries`, read
 * by admins at `GET /admin/audit`) instead of a table of its own: the rows it kept move there.
 */
export class Migration20261125000000_commerce_review extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `insert into "audit_entries" ("id", "actor_id", "action", "target_type", "target_id", "data", "created_at")
       select a."id", u."id", 'commerce.' || replace(a."action", '.', '_'), split_part(a."target", ':', 1), substr(a."target", strpos(a."target", ':') + 1), a."data", a."created_at"
       from "commerce_audit" a left join "users" u on u."id" = a."actor_id";`,
    );
    this.addSql(`drop table "commerce_audit";`);
    this.addSql(
      `create index "payments_provider_provider_charge_index" on "payments" ("provider", "provider_charge");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "payments_provider_provider_charge_index";`);
    this.addSql(
      `create table "commerce_audit" ("id" uuid not null, "actor_id" uuid null, "action" text not null, "target" text not null, "data" jsonb not null default '{}', "created_at" timestamptz not null, constraint "commerce_audit_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "commerce_audit_created_at_index" on "commerce_audit" ("created_at");`);
    this.addSql(
      `insert into "commerce_audit" ("id", "actor_id", "action", "target", "data", "created_at")
       select "id", "actor_id", regexp_replace(substr("action", 10), '_([a-z]+)$', '.\\1'), "target_type" || ':' || "target_id", "data", "created_at" from "audit_entries" where "action" like 'commerce.%';`,
    );
    this.addSql(`delete from "audit_entries" where "action" like 'commerce.%';`);
  }
}
