import Stripe from 'stripe';
import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from './app';
import { inEveryRegion } from './regions';
import { startProviderServer } from './provider-server';
import { adultSignup, type SignedIn, signInAdmin, signUp, uniqueEmail } from './users';

export const text = (en: string, vi = `${en} (vi)`) => ({ en, vi });

export function subscriptionBody(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'subscription',
    title: text('Starter monthly', 'Gói Starter tháng'),
    description: text('AI memory and more messages', 'Bộ nhớ AI và nhiều tin nhắn hơn'),
    tier: 'starter',
    prices: [
      { currency: 'VND', amount: 199000, interval: 'month' },
      { currency: 'USD', amount: 799, interval: 'month' },
    ],
    ...overrides,
  };
}

/** A published product made by an admin; answers the product. */
export async function publishedProduct(
  t: TestApp,
  admin: SignedIn,
  body: Record<string, unknown> = subscriptionBody(),
) {
  const created = await t.http.post('/products', body, { token: admin.accessToken });
  if (created.status !== 201) throw new Error(`product not created: ${JSON.stringify(created.body)}`);
  const published = await t.http.post(`/products/${created.body.id}/publish`, undefined, { token: admin.accessToken });
  await onSaleEverywhere(t, created.body.id);
  return published.body as { id: string; prices: { id: string; currency: string; amount: number }[] } & Record<
    string,
    any
  >;
}

/**
 * Until every region's copy of the products has this one published: products are written in global's
 * database and reach the others by replication, and a buyer's checkout reads their home region's copy.
 */
export function onSaleEverywhere(t: TestApp, productId: string): Promise<void> {
  return inEveryRegion(t, `select 1 from products where id = ? and status = 'published'`, [productId], 10_000);
}

/** A statement in every region's database, their rows together: what is kept of a buyer, wherever their home is. */
export async function rowsInEveryRegion<T>(
  t: Pick<TestApp, 'app'>,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  const rows = await Promise.all(t.app.deps.regions.map((region) => region.orm.em.fork().execute<T[]>(query, params)));
  return rows.flat();
}

export async function creatorAccount(t: TestApp): Promise<SignedIn> {
  return signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('creator'), displayName: 'Minh Creator' }));
}

export async function contentAdmin(t: TestApp, admin: SignedIn): Promise<SignedIn> {
  const editor = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('editor') }));
  await t.http.post(`/admin/users/${editor.id}/roles`, { role: 'content_admin' }, { token: admin.accessToken });
  return editor;
}

/** A course the creator wrote: their draft with one lesson, submitted and published by a content admin; answers its id. */
export async function creatorCourse(t: TestApp, creator: SignedIn, editor: SignedIn): Promise<string> {
  const draft = await t.http.post(
    '/creator/courses',
    { title: text('Scratch games'), description: text('Make a game'), level: 'beginner', minAge: 8, maxAge: 14 },
    { token: creator.accessToken },
  );
  const lesson = {
    title: text('Sprites'),
    objectives: { en: ['Move a sprite'], vi: ['Di chuyển nhân vật'] },
    content: text('Sprites move with blocks.'),
    quiz: [
      {
        prompt: text('Which block moves?'),
        options: [text('move'), text('say')],
        answerIndex: 0,
        explanation: text('move moves.'),
      },
    ],
  };
  await t.http.post(`/creator/courses/${draft.body.id}/lessons`, lesson, { token: creator.accessToken });
  await t.http.post(`/creator/courses/${draft.body.id}/submit`, undefined, { token: creator.accessToken });
  const approved = await t.http.post(`/creator/courses/${draft.body.id}/approve`, {}, { token: editor.accessToken });
  if (approved.status !== 200) throw new Error(`creator course not published: ${JSON.stringify(approved.body)}`);
  return approved.body.courseId as string;
}

let keys = 0;
export const newKey = () => `key-${Date.now()}-${++keys}`;

export async function checkout(t: TestApp, who: SignedIn, body: Record<string, unknown>, key: string = newKey()) {
  return t.http.post('/payments/checkout', body, { token: who.accessToken, headers: { 'idempotency-key': key } });
}

/** Reads the sandbox page at redirectUrl and returns its signed Pay and Cancel events. */
export async function sandboxEvents(t: TestApp, redirectUrl: string) {
  const url = new URL(redirectUrl);
  const page = await fetch(`${t.url}${url.pathname}${url.search}`);
  const html = await page.text();
  const attr = (name: string) => {
    const match = new RegExp(`${name}="([^"]*)"`).exec(html);
    if (!match) throw new Error(`no ${name} on the sandbox page (${page.status})`);
    return match[1].replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  };
  return {
    page,
    html,
    pay: { body: attr('data-pay'), signature: attr('data-pay-signature') },
    cancel: { body: attr('data-cancel'), signature: attr('data-cancel-signature') },
  };
}

export function postSandbox(t: TestApp, event: { body: string; signature: string }) {
  return t.http.rest('POST', '/payments/webhooks/sandbox', {
    raw: event.body,
    headers: { 'x-sandbox-signature': event.signature },
  });
}

/** Checkout and click Pay: a succeeded payment. */
export async function buy(
  t: TestApp,
  who: SignedIn,
  product: { id: string; prices: { id: string }[] },
  extra: Record<string, unknown> = {},
  priceIndex = 0,
) {
  const started = await checkout(t, who, { productId: product.id, priceId: product.prices[priceIndex].id, ...extra });
  if (started.status !== 201) throw new Error(`checkout failed: ${started.status} ${JSON.stringify(started.body)}`);
  const { pay } = await sandboxEvents(t, started.body.redirectUrl);
  const paid = await postSandbox(t, pay);
  if (paid.status !== 200) throw new Error(`pay failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  return started.body as { id: string; amount: number; currency: string };
}

export async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export { signInAdmin };

const stripe = new Stripe('sk_test_unused');

/** A Stripe event as Stripe sends it: the JSON payload and its `Stripe-Signature` header made with `secret`. */
export function signedStripeEvent(secret: string, type: string, object: Record<string, unknown>, id: string) {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object } });
  return { payload, header: stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}

/** Posts a signed event to the Stripe webhook, raw, as Stripe does. */
export function deliverStripeEvent(t: TestApp, event: { payload: string; header: string }) {
  return t.http.rest('POST', '/payments/webhooks/stripe', {
    raw: event.payload,
    headers: { 'stripe-signature': event.header },
  });
}

export interface StripeFixture {
  t: TestApp;
  admin: SignedIn;
  provider: Awaited<ReturnType<typeof startProviderServer>>;
  product: Awaited<ReturnType<typeof publishedProduct>>;
  /** A Stripe event signed with the app's webhook secret (or `secret`), with a fresh id unless given. */
  stripeEvent(
    type: string,
    object: Record<string, unknown>,
    id?: string,
    secret?: string,
  ): { payload: string; header: string };
}

/**
 * The app with Stripe configured against a local stand-in for Stripe's API, an admin and a
 * published product, started before the file's tests and closed after.
 */
export function withStripeProvider(name: string): StripeFixture {
  const webhookSecret = `whsec_test_secret_for_${name}`;
  let n = 0;
  const fixture = {
    stripeEvent: (
      type: string,
      object: Record<string, unknown>,
      id = `evt_${name}_${Date.now()}_${++n}`,
      secret = webhookSecret,
    ) => signedStripeEvent(secret, type, object, id),
  } as StripeFixture;
  beforeAll(async () => {
    fixture.provider = await startProviderServer();
    fixture.t = await startTestApp({
      PAYMENTS_SANDBOX: 'on',
      STRIPE_SECRET_KEY: `sk_test_${name}`,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: fixture.provider.url,
    });
    fixture.admin = await signInAdmin(fixture.t);
    fixture.product = await publishedProduct(fixture.t, fixture.admin);
  });
  afterAll(async () => {
    await fixture.t?.close();
    await fixture.provider?.close();
  });
  return fixture;
}
