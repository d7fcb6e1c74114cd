import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A payment whose sale a product's `sales` has counted, in global's database beside the products:
 * the key that makes a second delivery of the count a no-op. Written in plain SQL (sales-count.ts);
 * declared so that the schema generator knows the table.
 */
@Entity({ tableName: 'product_sales_counted' })
export class SaleCounted {
  [OptionalProps]?: 'countedAt';

  @PrimaryKey({ type: 'uuid' })
  paymentId!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  countedAt!: Date;
}
