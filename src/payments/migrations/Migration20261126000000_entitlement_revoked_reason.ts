import { Migration } from '@mikro-orm/migrations';

/** The reason of each revoked entitlement, from what is recorded (exported for its test). */
export const BACKFILL_REVOKED_REASON_SQL = `update "entitlements" e set "revoked_reason" = case
         when exists (select 1 from "audit_entries" a where a."action" = 'commerce.entitlement_revoked' and a."target_type" = 'entitlement' and a."target_id" = e."id"::text) then 'admin'
         when e."payment_id" is null then 'admin'
         when (select coalesce(sum(le."amount"), 0) from "ledger_entries" le join "ledger_transactions" lt on lt."id" = le."transaction_id"
               where lt."payment_id" = e."payment_id" and lt."kind" = 'chargeback' and le."account" like 'provider:%') < 0 then 'chargeback'
         else 'refund' end
       where e."status" = 'revoked';`;

/**
 * Entitlements keep why they were revoked (`refund`, `chargeback`, `admin`), so a won dispute
 * reactivates only what its chargeback took. Revoked rows get a reason from what is recorded: an
 * admin's revocation is in the audit trail; else a payment whose chargebacks are not reversed lost
 * them to its chargeback; else to a refund.
 */
export class Migration20261126000000_entitlement_revoked_reason extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "entitlements" add column "revoked_reason" text check ("revoked_reason" in ('refund', 'chargeback', 'admin')) null;`,
    );
    this.addSql(BACKFILL_REVOKED_REASON_SQL);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "entitlements" drop column "revoked_reason";`);
  }
}
