import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { adultSignup, type SignedIn, signInAdmin, signUp } from '../support/users';
import { buy, publishedProduct } from '../support/commerce';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

describe('the ledger', () => {
  it('is append-only and balanced in the database itself', async () => {
    const product = await publishedProduct(t, admin);
    const buyer = await signUp(t, adultSignup());
    await buy(t, buyer, product);
    // The buyer's ledger is kept in their home region's database.
    const em = openUnit(await homeOf(t, buyer.id)).uow.em;
    await expect(em.execute('update ledger_entries set amount = amount + 1')).rejects.toThrow(/append-only/);
    await expect(em.execute('delete from ledger_transactions')).rejects.toThrow(/append-only/);
    await expect(em.execute('truncate ledger_entries cascade')).rejects.toThrow();
    await expect(
      em.transactional(async (tx) => {
        const [{ id }] = await tx.execute<{ id: string }[]>(
          `insert into ledger_transactions (id, kind, payment_id, created_at) values (gen_random_uuid(), 'payment', gen_random_uuid(), now()) returning id`,
        );
        await tx.execute(
          `insert into ledger_entries (id, transaction_id, account, amount, currency, created_at) values (gen_random_uuid(), ?, 'revenue:platform', 5, 'USD', now())`,
          [id],
        );
      }),
    ).rejects.toThrow(/does not sum to zero/);
    const unbalanced = await em.execute(
      `select transaction_id from ledger_entries group by transaction_id, currency having sum(amount) <> 0`,
    );
    expect(unbalanced).toHaveLength(0);
  });

  it('balances are for admins only', async () => {
    const user = await signUp(t, adultSignup());
    expect((await t.http.get('/admin/ledger/balances')).status).toBe(401);
    expect((await t.http.get('/admin/ledger/balances', { token: user.accessToken })).status).toBe(403);
    const gql = await t.http.gql('{ ledgerBalances { items { account currency balance } } }', {}, admin.accessToken);
    expect(gql.body.data.ledgerBalances.items.length).toBeGreaterThan(0);
  });
});
