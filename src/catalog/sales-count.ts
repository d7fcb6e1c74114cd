import { GLOBAL_REGION } from '../db/regions';
import type { UnitOfWork } from '../kernel/unit-of-work';

const COUNT_ONCE = `with counted as (insert into product_sales_counted (payment_id) values (?) on conflict do nothing returning 1)
  update products set sales = sales + 1 where id = ? and exists (select 1 from counted)`;

/**
 * Counts a payment's sale on its product, once. Products are global's to write (a region holds a
 * read-only copy), so a sale made in another region is counted in global's database, by a statement
 * of its own: the payment's id is its key there, so the outbox row delivered again counts nothing.
 * In global it joins the reaction's transaction.
 */
export async function countSale(uow: UnitOfWork, paymentId: string, productId: string): Promise<void> {
  const params = [paymentId, productId];
  if (uow.deps.region === GLOBAL_REGION) await uow.query(COUNT_ONCE, params);
  else await uow.deps.inRegion(GLOBAL_REGION).sql.query(COUNT_ONCE, params);
}
