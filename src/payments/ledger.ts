import type { EntityManager } from '@mikro-orm/postgresql';
import { push } from '../kernel/sql-params';
import { LedgerKind } from './payments.entity';

// The ledger: double-entry and append-only (the database refuses update and delete). Each
// transaction's entries sum to zero, on the accounts `provider:<name>`, `customer:<userId>`,
// `revenue:platform` and `payable:creator:<userId>`; balances are kept by the database as entries arrive.

/** The platform's fee on a payment of `amount`: all of it for the platform's own products (no seller). */
export function platformFee(feePercent: number, amount: number, sellerId: string | null): number {
  return sellerId ? Math.floor((amount * feePercent) / 100) : amount;
}

/** The cumulative share of `part` of `total` that `fee` is, so partial refunds add up to the whole fee exactly. */
export const shareOf = (fee: number, amount: number, part: number) => Math.floor((part * fee) / amount);

/** The split of `amount` (sign: 1 for a payment, -1 for a refund) between revenue and the seller. */
export function feeSplit(
  payerId: string,
  sellerId: string | null,
  amount: number,
  fee: number,
  sign: 1 | -1,
): [string, number][] {
  const entries: [string, number][] = [
    [`customer:${payerId}`, sign * amount],
    ['revenue:platform', -sign * fee],
  ];
  if (sellerId && amount - fee !== 0) entries.push([`payable:creator:${sellerId}`, -sign * (amount - fee)]);
  return entries.filter(([, value]) => value !== 0);
}

/** One balanced ledger transaction; entries go in account order, so concurrent postings lock balances in one order. */
export async function post(
  em: EntityManager,
  kind: LedgerKind,
  paymentId: string,
  refundId: string | null,
  entries: [string, number][],
  currency: string,
): Promise<void> {
  const params: unknown[] = [];
  const ctes = ledgerCtes(params, paymentId, refundId, currency, [[kind, entries]]);
  if (ctes.length) await em.execute(`with ${ctes.join(',\n')} select 1`, params);
}

/**
 * Common table expressions that write balanced ledger transactions (one per item) and their
 * entries in one statement. The entries of all of them go in account order, so concurrent postings
 * take the balances' rows in one order.
 */
export function ledgerCtes(
  params: unknown[],
  paymentId: string,
  refundId: string | null,
  currency: string,
  transactions: [LedgerKind, [string, number][]][],
): string[] {
  const ctes: string[] = [];
  // Placeholders are positional: the transactions' values first, then the currency, then the entries', as the SQL reads.
  const kept = transactions.map(([kind, entries]) => {
    if (entries.reduce((sum, [, amount]) => sum + amount, 0) !== 0)
      throw new Error(`unbalanced ${kind} for payment ${paymentId}`);
    return [kind, entries.filter(([, amount]) => amount !== 0)] as const;
  });
  kept.forEach(([kind, entries], i) => {
    if (entries.length)
      ctes.push(
        `lt${i} as (insert into ledger_transactions (id, kind, payment_id, refund_id, created_at) values (gen_random_uuid(), ${push(params, kind)}, ${push(params, paymentId)}, ${push(params, refundId)}, now()) returning id)`,
      );
  });
  if (!ctes.length) return [];
  const currencyAt = push(params, currency);
  const rows = kept.flatMap(([, entries], i) =>
    entries.map(
      ([account, amount]) =>
        `select lt${i}.id as tx, ${push(params, account)}::text as account, ${push(params, amount)}::bigint as amount from lt${i}`,
    ),
  );
  ctes.push(
    `le as (insert into ledger_entries (id, transaction_id, account, amount, currency, created_at)
      select gen_random_uuid(), x.tx, x.account, x.amount, ${currencyAt}, now() from (${rows.join(' union all ')}) x order by x.account returning 1)`,
  );
  return ctes;
}

/**
 * Money taken per currency in ledger transactions booked since `since`: what the platform's revenue
 * and the creators' payables were credited, less what refunds and chargebacks took back (partial
 * ones included).
 */
export async function revenueSince(em: EntityManager, since: Date): Promise<{ currency: string; amount: number }[]> {
  const rows = await em.execute<{ currency: string; amount: string }[]>(
    `select e.currency, -sum(e.amount)::bigint as amount from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
     where t.created_at >= ? and (e.account = 'revenue:platform' or e.account like 'payable:creator:%')
     group by e.currency having sum(e.amount) <> 0 order by e.currency`,
    [since],
  );
  return rows.map((r) => ({ currency: r.currency.trim(), amount: Number(r.amount) }));
}

/** Balances per account and currency, kept by the database as entries arrive. */
export async function balances(
  em: EntityManager,
): Promise<{ account: string; currency: string; balance: number; entries: number }[]> {
  const rows =
    await em.execute<{ account: string; currency: string; balance: string; entries: string }[]>(BALANCES_SQL);
  return rows.map((r) => ({
    account: r.account,
    currency: r.currency,
    balance: Number(r.balance),
    entries: Number(r.entries),
  }));
}

export const BALANCES_SQL =
  'select account, currency, sum(balance) as balance, sum(entries) as entries from ledger_balances group by account, currency order by account, currency';

/** Rows of every region's ledger added up by their key (an account, a currency), in the key's order. */
export function summed<T extends object>(rows: T[], key: (row: T) => string[], fields: (keyof T)[]): T[] {
  const sums = new Map<string, T>();
  for (const row of rows) {
    const id = JSON.stringify(key(row));
    const sum = sums.get(id);
    if (!sum) sums.set(id, { ...row });
    else for (const field of fields) (sum[field] as number) += row[field] as number;
  }
  return [...sums.keys()].sort().map((id) => sums.get(id)!);
}
