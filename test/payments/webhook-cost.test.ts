import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { fewestStatements, settled } from '../support/sql';
import { adultSignup, type SignedIn, signInAdmin, signUp } from '../support/users';
import { checkout, postSandbox, publishedProduct, sandboxEvents } from '../support/commerce';

let t: TestApp;
let admin: SignedIn;
let product: Awaited<ReturnType<typeof publishedProduct>>;

beforeAll(async () => {
  // The relay's sweep out of the way: what follows a commit must be woken by the commit itself.
  t = await startTestApp({ OUTBOX_SWEEP_MS: '600000' });
  admin = await signInAdmin(t);
  product = await publishedProduct(t, admin);
});
afterAll(async () => {
  await t?.close();
});

describe('the cost of a payment webhook (bench:commerce measures its rate)', () => {
  it('applies a sandbox payment in one transaction of 5 statements, locking only the payment, after one look-up per region', async () => {
    const events: { body: string; signature: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const buyer = await signUp(t, adultSignup());
      const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id });
      events.push((await sandboxEvents(t, started.body.redirectUrl)).pay);
    }
    let i = 0;
    // Each run once the reactions of the one before are delivered (their statements are not the webhook's).
    const { statements: sent } = await fewestStatements(t, async () => {
      await settled(t);
      expect((await postSandbox(t, events[i++])).status).toBe(200);
    });
    // What follows the commit (the sales count, the notification) does not hold the answer.
    const begin = sent.findIndex((q) => /^begin/i.test(q));
    const seen = sent.slice(begin, sent.findIndex((q) => /^commit/i.test(q)) + 1);
    // Before it, only the look-up of the region holding the payment (the webhook carries no token): one read per region.
    expect(sent.slice(0, begin)).toHaveLength(t.app.deps.regions.length);
    expect(sent.slice(0, begin).every((q) => /^select 1 from payments where id = /i.test(q))).toBe(true);
    // begin, the inbox row with the payment (locked) and its product, one statement for the payment, entitlement, tier, ledger and
    // audit entry, the outbox rows of what follows (with their NOTIFY), commit.
    expect(seen.length, seen.join('\n')).toBeLessThanOrEqual(5);
    expect(seen.filter((q) => /insert into outbox/i.test(q))).toHaveLength(1);
    // No NOTIFY in it: PostgreSQL holds one lock for every NOTIFY of the database from a commit's start to the end of its WAL
    // flush, so webhooks that notified their relays at commit committed one after another (bench:commerce stalled at ~170/s).
    expect(seen.filter((q) => /pg_notify|^\s*notify/i.test(q))).toEqual([]);
    // Only the payment's row is locked: every sale of a product shares the product's row.
    expect(seen.filter((q) => /for update/i.test(q))).toEqual([expect.stringMatching(/from "payments"/)]);
    expect(seen.filter((q) => /^begin/i.test(q))).toHaveLength(1);
  });

  it('changes nothing when the webhook is replayed: the money, the entitlement, the notification and the sales count happen once', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id });
    const { pay } = await sandboxEvents(t, started.body.redirectUrl);
    // What the buyer, the admin and the marketplace see of the sale once its reactions are delivered.
    const state = async () => {
      await settled(t);
      const [payment, balances, entitlements, notifications, listed] = await Promise.all([
        t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken }),
        t.http.get('/admin/ledger/balances', { token: admin.accessToken }),
        t.http.get('/entitlements/me', { token: buyer.accessToken }),
        t.http.get('/notifications?limit=50', { token: buyer.accessToken }),
        t.http.get(`/products/${product.id}`, { token: admin.accessToken }),
      ]);
      return {
        status: payment.body.status,
        balances: balances.body.items,
        entitlements: entitlements.body.items.map((e: { id: string }) => e.id),
        received: notifications.body.items.filter(
          (n: { data: { paymentId?: string } }) => n.data.paymentId === started.body.id,
        ).length,
        sales: listed.body.sales as number,
      };
    };
    const before = await state();
    expect((await postSandbox(t, pay)).status).toBe(200);
    const once = await state();
    expect(once).toMatchObject({ status: 'succeeded', received: 1, sales: before.sales + 1 });
    expect(once.entitlements).toHaveLength(1);
    expect(once.balances).not.toEqual(before.balances);

    // The provider sends it again, once on its own and then five times at once: each is answered 200, none applies.
    expect((await postSandbox(t, pay)).status).toBe(200);
    const replays = await Promise.all(Array.from({ length: 5 }, () => postSandbox(t, pay)));
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await state()).toEqual(once);
  });

  it('wakes the relays once the payment is committed: the sales count and the notification follow within seconds, not at the sweep', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id });
    const { pay } = await sandboxEvents(t, started.body.redirectUrl);
    await settled(t);
    const sales = (await t.http.get(`/products/${product.id}`, { token: admin.accessToken })).body.sales as number;
    expect((await postSandbox(t, pay)).status).toBe(200);
    const deadline = Date.now() + 5000;
    let seen = { sales, received: 0 };
    while (Date.now() < deadline && (seen.sales === sales || !seen.received)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [listed, notifications] = await Promise.all([
        t.http.get(`/products/${product.id}`, { token: admin.accessToken }),
        t.http.get('/notifications?limit=50', { token: buyer.accessToken }),
      ]);
      seen = {
        sales: listed.body.sales,
        received: notifications.body.items.filter(
          (n: { data: { paymentId?: string } }) => n.data.paymentId === started.body.id,
        ).length,
      };
    }
    expect(seen).toEqual({ sales: sales + 1, received: 1 });
  });
});
