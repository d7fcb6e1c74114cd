import type { EntityManager } from '@mikro-orm/postgresql';
import { type Price, type ProductKind, saleProductJoin } from '../catalog';
import type { Tier } from '../auth';
import { isId } from '../kernel/ids';
import type { Localized } from '../kernel/localized';
import { push } from '../kernel/sql-params';
import type { Payment, PaymentStatus } from './payments.entity';
import type { ProviderEvent } from './providers/types';

/**
 * The event stored in the inbox and the payment it names, its row locked, with its product: one
 * round trip, where the ORM took three (the webhook is the hot path, and its answer waits for each).
 * Null when the event was stored before (a replay: nothing is locked then); `sale` null when no
 * payment is named or found. Only the payment's row is locked: every sale of a product shares its row.
 */
export async function claim(
  em: EntityManager,
  provider: string,
  event: ProviderEvent,
): Promise<{ sale: Sale | null } | null> {
  const params: unknown[] = [
    provider,
    event.eventId,
    event.kind,
    event.paymentId && isId(event.paymentId) ? event.paymentId : null,
    JSON.stringify(event.raw ?? {}),
  ];
  const where =
    event.kind === 'ignored'
      ? null
      : event.paymentId && isId(event.paymentId)
        ? `p.id = ${push(params, event.paymentId)}`
        : event.providerRef
          ? `p.provider_ref = ${push(params, event.providerRef)}`
          : event.providerCharge
            ? `p.provider_charge in (${[event.providerCharge, ...(event.providerChargeAliases ?? [])].map((charge) => push(params, charge)).join(', ')})`
            : null;
  const product = saleProductJoin('p.product_id');
  const locked = where
    ? `select p.id, p.status, p.amount, p.currency, p.provider, p.price_id, p.payer_id, p.beneficiary_id, p.product_id, ${product.columns}
       from "payments" p ${product.join}
       where ${where} and p.provider = ${push(params, provider)} and exists (select 1 from stored) for update of p`
    : `select null::uuid as id where false`;
  const [row] = await em.execute<SaleRow[]>(
    `with stored as (insert into webhook_events (id, provider, event_id, type, payment_id, payload, received_at) values (gen_random_uuid(), ?, ?, ?, ?, ?, now())
       on conflict (provider, event_id) do nothing returning id)
     select (select count(*) from stored)::int as stored, s.* from (select 1) one left join (${locked}) s on true`,
    params,
  );
  if (!row.stored) return null;
  if (!row.id) return { sale: null };
  return {
    sale: {
      id: row.id,
      status: row.status,
      amount: Number(row.amount),
      currency: row.currency,
      provider: row.provider,
      priceId: row.price_id,
      payerId: row.payer_id,
      beneficiaryId: row.beneficiary_id,
      product: {
        id: row.product_id,
        kind: row.kind,
        tier: row.tier,
        prices: row.prices,
        courseIds: row.course_ids,
        sellerId: row.seller_id,
        title: row.title,
      },
    },
  };
}

/** What a payment's success reads of it and its product. */
export interface Sale {
  id: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  provider: string;
  priceId: string;
  payerId: string;
  beneficiaryId: string;
  product: {
    id: string;
    kind: ProductKind;
    tier: Tier | null;
    prices: Price[];
    courseIds: string[];
    sellerId: string | null;
    title: Localized;
  };
}

/** The row `claim` reads: `stored` 0 for a replay, the payment's columns null when none was found. */
interface SaleRow {
  stored: number;
  id: string | null;
  status: PaymentStatus;
  amount: string;
  currency: string;
  provider: string;
  price_id: string;
  payer_id: string;
  beneficiary_id: string;
  product_id: string;
  kind: ProductKind;
  tier: Tier | null;
  prices: Price[];
  course_ids: string[];
  seller_id: string | null;
  title: Localized;
}

/** A payment entity (a renewal just written, its product loaded) as a sale. */
export function saleOf(payment: Payment): Sale {
  const { product } = payment;
  return {
    id: payment.id,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    provider: payment.provider,
    priceId: payment.priceId,
    payerId: payment.payer.id,
    beneficiaryId: payment.beneficiary.id,
    product: {
      id: product.id,
      kind: product.kind,
      tier: product.tier,
      prices: product.prices,
      courseIds: product.courseIds,
      sellerId: product.seller?.id ?? null,
      title: product.title,
    },
  };
}
