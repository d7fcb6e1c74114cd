import { Migration } from '@mikro-orm/migrations';

/**
 * The payments a product's sales count has counted, in global's database beside the products. A sale
 * in another region is counted from that region's outbox, whose row is deleted in its own database's
 * transaction: when that transaction fails after global's count committed, the row comes again, and
 * this key makes the second count a no-op. Only a payment's id: nothing that names its payer.
 */
export class Migration20261204000000_sales_counted extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "product_sales_counted" (
      "payment_id" uuid primary key,
      "counted_at" timestamptz not null default now()
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "product_sales_counted";`);
  }
}
