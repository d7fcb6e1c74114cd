import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/auth/user.entity';
import { sandboxSecretOf } from '../../src/payments/providers';
import { signSandbox } from '../../src/payments/providers/sandbox';
import { openUnit } from '../../src/server/platform';
import type { Deps } from '../../src/kernel/deps';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { adultSignup, signInAdmin, signUp } from '../support/users';
import { publishedProduct, waitFor } from '../support/commerce';

let t: TestApp;
let users: User[];
let admin: User;
let home: Deps;
let product: Awaited<ReturnType<typeof publishedProduct>>;
const payments: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const adminAccount = await signInAdmin(t);
  product = await publishedProduct(t, adminAccount);
  const accounts = [await signUp(t, adultSignup()), await signUp(t, adultSignup())];
  // The buyers' payments, ledger and refunds are kept in their home region (one: they share a country).
  home = await homeOf(t, accounts[0].id);
  const { services } = openUnit(home);
  users = await Promise.all(accounts.map(async (a) => (await services.auth.findUser(a.id))!));
  admin = (await openUnit(t.app.deps).services.auth.findUser(adminAccount.id))!;
});
afterAll(async () => {
  await t?.close();
});

const unit = () => openUnit(home).services.payments;
const sql = <T = Record<string, string>>(query: string, params: unknown[] = []) =>
  openUnit(home).uow.em.execute<T[]>(query, params);

/** The provider's event as the sandbox page signs it: an amount is trusted only with its currency (webhook-money.ts). */
function sandboxEvent(
  type: 'payment.succeeded' | 'payment.canceled',
  paymentId: string,
  amount: number,
  currency: string,
) {
  const body = JSON.stringify({ id: `evt_${type}_${paymentId}`, type, paymentId, amount, currency });
  return {
    method: 'POST',
    rawBody: Buffer.from(body),
    headers: { 'x-sandbox-signature': signSandbox(sandboxSecretOf(t.app.deps.config), body) },
    query: {},
  };
}

type Step =
  | { kind: 'checkout'; user: number; price: number }
  | { kind: 'pay' | 'cancel'; payment: number }
  | { kind: 'refund'; payment: number; part: number }
  | { kind: 'expire' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('checkout' as const), user: fc.nat(1), price: fc.nat(1) }),
  fc.record({ kind: fc.constantFrom('pay' as const, 'cancel' as const), payment: fc.nat(20) }),
  fc.record({ kind: fc.constant('refund' as const), payment: fc.nat(20), part: fc.integer({ min: 1, max: 100 }) }),
  fc.constant({ kind: 'expire' as const }),
);

async function run(s: Step): Promise<void> {
  const pick = (i: number) => (payments.length ? payments[i % payments.length] : null);
  switch (s.kind) {
    case 'checkout': {
      const answer = await unit().checkout(
        users[s.user],
        { productId: product.id, priceId: product.prices[s.price].id },
        null,
      );
      payments.push(answer.payment!.id);
      return;
    }
    case 'pay':
    case 'cancel': {
      const id = pick(s.payment);
      if (!id) return;
      const [row] = await sql<{ amount: string; currency: string }>(
        'select amount, currency from payments where id = ?',
        [id],
      );
      await unit().webhook(
        'sandbox',
        sandboxEvent(s.kind === 'pay' ? 'payment.succeeded' : 'payment.canceled', id, Number(row.amount), row.currency),
      );
      return;
    }
    case 'refund': {
      const id = pick(s.payment);
      if (!id) return;
      const [row] = await sql<{ amount: string; refunded_amount: string; status: string }>(
        'select amount, refunded_amount, status from payments where id = ?',
        [id],
      );
      const left = Number(row.amount) - Number(row.refunded_amount);
      if (!['succeeded', 'partially_refunded'].includes(row.status) || left <= 0) return;
      const amount = Math.max(1, Math.floor((left * s.part) / 100));
      const refund = await openUnit(t.app.deps).services.refunds.request(admin, {
        paymentId: id,
        amount,
        reason: 'property',
      });
      await openUnit(t.app.deps).services.refunds.approve(admin, refund.id);
      await waitFor(
        () => sql<{ status: string }>('select status from refunds where id = ?', [refund.id]),
        ([r]) => r.status !== 'processing',
      );
      return;
    }
    case 'expire':
      await unit().sweep(new Date(Date.now() + 86_400_000));
  }
}

/** The books as an accountant checks them: every transaction balanced, each balance its entries' sum, the provider's the payments' net. */
async function expectExactBooks(): Promise<void> {
  const unbalanced = await sql(
    `select transaction_id, currency from ledger_entries group by transaction_id, currency having sum(amount) <> 0`,
  );
  expect(unbalanced).toEqual([]);
  const kept = await sql(
    `select b.account, b.currency from (select account, currency, sum(balance) balance, sum(entries) entries from ledger_balances group by 1, 2) b left join (select account, currency, sum(amount) s, count(*) n from ledger_entries group by 1, 2) e using (account, currency) where b.balance <> coalesce(e.s, 0) or b.entries <> coalesce(e.n, 0)`,
  );
  expect(kept).toEqual([]);
  const expected = await sql<{ currency: string; net: string }>(
    `select currency, sum(amount - refunded_amount) net from payments where status in ('succeeded', 'partially_refunded', 'refunded') group by currency`,
  );
  const balances = await sql<{ currency: string; balance: string }>(
    `select currency, sum(balance) balance from ledger_balances where account = 'provider:sandbox' group by currency`,
  );
  for (const { currency, net } of expected)
    expect(Number(balances.find((b) => b.currency === currency)?.balance ?? 0)).toBe(Number(net));
  const customers = await sql(
    `select account from ledger_balances where account like 'customer:%' group by account, currency having sum(balance) <> 0`,
  );
  expect(customers).toEqual([]);
  const nonZero = await sql(`select currency from ledger_balances group by currency having sum(balance) <> 0`);
  expect(nonZero).toEqual([]);
  const over = await sql(`select id from payments where refunded_amount > amount`);
  expect(over).toEqual([]);
}

describe('the ledger under random sequences (fast-check)', () => {
  it('keeps every transaction balanced and the balances equal to payments minus refunds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const s of steps) await run(s);
        await expectExactBooks();
      }),
      { numRuns: 15 },
    );
  }, 180_000);

  it('stays exact when the webhooks of the same payments and accounts race: payments, cancels and replays at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            user: fc.nat(1),
            events: fc.array(fc.constantFrom('pay' as const, 'cancel' as const), { minLength: 1, maxLength: 4 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (plans) => {
          const started = await Promise.all(
            plans.map((plan) =>
              unit().checkout(users[plan.user], { productId: product.id, priceId: product.prices[0].id }, null),
            ),
          );
          // Every event of every payment at once, on their own units (as concurrent requests): a repeated kind is the provider's replay.
          await Promise.all(
            plans.flatMap((plan, i) =>
              plan.events.map((kind) =>
                unit().webhook(
                  'sandbox',
                  sandboxEvent(
                    kind === 'pay' ? 'payment.succeeded' : 'payment.canceled',
                    started[i].payment!.id,
                    started[i].payment!.amount,
                    started[i].payment!.currency,
                  ),
                ),
              ),
            ),
          );
          for (const [i, plan] of plans.entries()) {
            const id = started[i].payment!.id;
            // A payment the provider took is taken, whatever came before or after: once on the ledger, one entitlement.
            const paid = plan.events.includes('pay');
            const [row] = await sql<{ status: string }>('select status from payments where id = ?', [id]);
            expect(row.status).toBe(paid ? 'succeeded' : 'canceled');
            const [{ n }] = await sql<{ n: string }>(
              `select count(*) n from ledger_transactions where payment_id = ? and kind = 'payment'`,
              [id],
            );
            expect(Number(n)).toBe(paid ? 1 : 0);
            const [{ e }] = await sql<{ e: string }>('select count(*) e from entitlements where payment_id = ?', [id]);
            expect(Number(e)).toBe(paid ? 1 : 0);
          }
          await expectExactBooks();
        },
      ),
      { numRuns: 10 },
    );
  }, 180_000);
});
