import { Migration } from '@mikro-orm/migrations';

/**
 * The run that holds a request's lease is named by a token of its claim: its renewals and its
 * completion count only while the token is still its own, so a run that stalled past its lease
 * cannot mark an export ready (and mail it) after another run took it over.
 */
export class Migration20261203000000_gdpr_lease_owner extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "gdpr_requests" add column "lease_owner" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "gdpr_requests" drop column "lease_owner";`);
  }
}
