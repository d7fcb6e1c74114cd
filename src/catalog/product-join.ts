/**
 * What a sale reads of its product (kind, tier, prices, courses, seller, title), joined into the
 * payments area's own statement for a hot path that answers in one round trip (a webhook's claim):
 * the SQL on this area's table stays this area's. `productId` is the joining row's column.
 */
export function saleProductJoin(productId: string): { columns: string; join: string } {
  return {
    columns: 'sold.kind, sold.tier, sold.prices, sold.course_ids, sold.seller_id, sold.title',
    join: `join products sold on sold.id = ${productId}`,
  };
}
