import { Migration } from '@mikro-orm/migrations';

/**
 * A refund is kept with its payment, in the payer's home region, and an admin of another region may
 * ask for it: the requester's account is not always in that database, so the foreign key goes. What
 * its cascade did at an erasure, the refunds area's erasure now does (the requester becomes the pseudonym).
 */
export class Migration20261204000200_refund_requester_of_any_region extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refunds" drop constraint if exists "refunds_requested_by_id_foreign";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "refunds" add constraint "refunds_requested_by_id_foreign" foreign key ("requested_by_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }
}
