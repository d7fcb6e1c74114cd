import '../production';
import autocannon from 'autocannon';
import pg from 'pg';
import { BALANCES_SQL } from '../../src/payments/ledger';
import { sandboxSecretOf } from '../../src/payments/providers';
import { type SandboxEventBody, signSandbox } from '../../src/payments/providers/sandbox';
import { openUnit } from '../../src/server/platform';
import { availableParallelism } from 'node:os';
import { databaseCpuSeconds, run, startBenchService } from '../support';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const LEDGER_ENTRIES = Number(process.env.BENCH_LEDGER_ENTRIES ?? 1_000_000);
const PASSWORD = 'a long enough bench passphrase';

/**
 * Commerce under load, with the sandbox provider: checkouts per second (each with its own
 * Idempotency-Key) and webhooks applied per second (each a distinct payment's signed Pay event),
 * at 100 connections, beside the bare `GET /auth/me` of the same run; then
 * `GET /admin/ledger/balances` over 1,000,000 ledger entries, with the query plans.
 */
run(async () => {
  const service = await startBenchService({ PAYMENTS_SANDBOX: 'on' });
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    openUnit(service.app.deps).uow.em.execute<T[]>(query, params);
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(service.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, any>;
  };
  try {
    await service.services.admin.ensureAdmin('bench-admin@example.com', PASSWORD);
    const admin = await post('/auth/login', { email: 'bench-admin@example.com', password: PASSWORD });
    const buyer = await post('/auth/signup', {
      email: 'bench-buyer@example.com',
      password: PASSWORD,
      displayName: 'Bench Buyer',
      role: 'guardian',
      country: 'VN',
    });
    const created = await post(
      '/products',
      {
        kind: 'subscription',
        title: { en: 'Starter', vi: 'Starter' },
        description: { en: 'Bench', vi: 'Bench' },
        tier: 'starter',
        prices: [{ currency: 'VND', amount: 199000, interval: 'month' }],
      },
      admin.accessToken,
    );
    const product = await post(`/products/${created.id}/publish`, {}, admin.accessToken);
    const priceId = product.prices[0].id as string;
    const auth = { authorization: `Bearer ${buyer.accessToken}`, 'content-type': 'application/json' };

    const load = async (name: string, options: autocannon.Options) => {
      const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
      console.log(
        `${name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} ${result.latency.p50.toFixed(1).padStart(9)} ${result.latency.p99.toFixed(1).padStart(8)} ${String(result.non2xx + result.errors).padStart(8)}`,
      );
      return result;
    };

    // Warm-up, then the three loads.
    await autocannon({ url: `${service.url}/auth/me`, headers: auth, connections: 10, duration: 2 });
    console.log(`\n${DURATION} s each, ${CONNECTIONS} connections, Node ${process.version}`);
    console.log('target                               req/s    p50 ms   p99 ms  non-2xx');
    const me = await load('GET /auth/me (baseline)', { url: `${service.url}/auth/me`, headers: auth });

    let key = 0;
    const checkoutBody = JSON.stringify({ productId: product.id, priceId });
    const checkouts = await load('POST /payments/checkout', {
      url: `${service.url}/payments/checkout`,
      method: 'POST',
      requests: [
        {
          method: 'POST',
          body: checkoutBody,
          setupRequest: (req) => ({ ...req, headers: { ...auth, 'idempotency-key': `bench-${++key}` } }),
        },
      ],
    });

    // 1,000 buyers (copies of the signed-up one) and pending payments spread over them, more than the
    // run can use: each webhook is a distinct payment's first Pay, as a day of sales would bring them.
    await sql(
      `insert into users (id, email, password_hash, display_name, roles, country, locale, tier, status, email_verified_at, created_at, updated_at)
       select gen_random_uuid(), 'bench-' || g || '@example.com', password_hash, display_name, roles, country, locale, 'free', status, now(), now(), now() from users, generate_series(1, 1000) g where id = ?`,
      [buyer.user.id],
    );
    const ids = (
      await sql<{ id: string }>(
        `with buyers as (select id, row_number() over () - 1 as n from users where email like 'bench-%@example.com')
       insert into payments (id, payer_id, beneficiary_id, product_id, price_id, provider, amount, currency, status, expires_at, created_at, updated_at)
       select gen_random_uuid(), b.id, b.id, ?, ?, 'sandbox', 199000, 'VND', 'pending', now() + interval '1 day', now(), now()
       from generate_series(1, 60000) g join buyers b on b.n = g % 1000 returning id`,
        [product.id, priceId],
      )
    ).map((r) => r.id);
    const secret = sandboxSecretOf(service.config);
    // The provider's Pay as the sandbox page signs it: an amount is trusted only with its currency (webhook-money.ts).
    const payEvent = (id: string) =>
      JSON.stringify({
        id: `evt_pay_${id}`,
        type: 'payment.succeeded',
        paymentId: id,
        amount: 199000,
        currency: 'VND',
      } satisfies SandboxEventBody);
    let next = 0;
    // What one webhook costs: the SQL statements it sends (its transaction included), before the load.
    const logger = service.app.deps.orm.config.getLogger();
    const logQuery = logger.logQuery.bind(logger);
    const sent: string[] = [];
    logger.logQuery = (context: { query: string }) => void sent.push(context.query);
    {
      const id = ids[ids.length - 1];
      const body = payEvent(id);
      await fetch(`${service.url}/payments/webhooks/sandbox`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-sandbox-signature': signSandbox(sandboxSecretOf(service.config), body),
        },
        body,
      });
    }
    // Reactions after commit run after the answer: counted until no statement came for 300 ms.
    for (let seen = -1; seen !== sent.length;) {
      seen = sent.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    logger.logQuery = logQuery;
    // A webhook that is not applied is answered 200 too (the provider must not send it again): measure only applied ones.
    if (!sent.some((q) => /^commit/i.test(q))) throw new Error(`the webhook was not applied:\n${sent.join('\n')}`);
    const inTransaction = sent.slice(0, sent.findIndex((q) => /^commit/i.test(q)) + 1);
    console.log(
      `one webhook: ${inTransaction.length} statements in its transaction (begin and commit included), ${sent.length - inTransaction.length} after commit (sales count, notification)`,
    );
    const before = Number(
      (await sql<{ n: string }>(`select count(*) n from payments where status = 'succeeded'`))[0].n,
    );
    const databaseBefore = databaseCpuSeconds(service);
    const webhooks = await load('POST /payments/webhooks/sandbox', {
      url: `${service.url}/payments/webhooks/sandbox`,
      method: 'POST',
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const id = ids[next++ % ids.length];
            const body = payEvent(id);
            return {
              ...req,
              body,
              headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandbox(secret, body) },
            };
          },
        },
      ],
    });
    const databaseDuring = databaseCpuSeconds(service);
    const applied =
      Number((await sql<{ n: string }>(`select count(*) n from payments where status = 'succeeded'`))[0].n) - before;
    // The reactions (sales counts, notifications) follow off the answer's path: how far behind the relay is when the load stops.
    const loadEnded = Date.now();
    const waiting = async () =>
      Number((await sql<{ n: string }>('select count(*) n from outbox where failed_at is null'))[0].n);
    const backlog = await waiting();
    while ((await waiting()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    console.log(
      `reactions waiting when the load stopped: ${backlog}, all delivered ${((Date.now() - loadEnded) / 1000).toFixed(1)} s later`,
    );
    console.log(
      `\nwebhooks applied: ${applied} in ${DURATION} s = ${(applied / DURATION).toFixed(0)}/s (each a payment, its entitlement, the tier, two ledger transactions, an audit row)`,
    );
    console.log(`checkouts / baseline: ${((checkouts.requests.average / me.requests.average) * 100).toFixed(0)}%`);
    console.log(
      `webhooks / baseline:  ${((webhooks.requests.average / me.requests.average) * 100).toFixed(0)}% (the database's own CPU caps it at the ceiling above)`,
    );
    if (databaseBefore !== undefined && databaseDuring !== undefined && applied > 0) {
      // The database's own work per applied webhook during the load (the relay's reactions mostly wait
      // until after it): on these cores, no service could apply more webhooks than the database has CPU for.
      const perWebhookMs = ((databaseDuring - databaseBefore) * 1000) / applied;
      const ceiling = (availableParallelism() * 1000) / perWebhookMs;
      console.log(
        `PostgreSQL's CPU per webhook: ${perWebhookMs.toFixed(2)} ms; on ${availableParallelism()} cores the database alone allows at most ${ceiling.toFixed(0)}/s, ${((ceiling / me.requests.average) * 100).toFixed(0)}% of the baseline`,
      );
    }

    // The ledger at 1,000,000 entries: one INSERT ... SELECT over generate_series of balanced two-entry
    // transactions over 1,000 customers. A million rows through the row triggers in one statement
    // queues a million deferred checks (the embedded server ran out of memory), so the load is the
    // bulk load a migration of old books would be: the triggers off for that one transaction, the
    // balances then added from the rows in one statement, as the trigger would have added them.
    const [{ n: existing }] = await sql<{ n: string }>('select count(*) n from ledger_entries');
    const pairs = Math.max(0, Math.ceil((LEDGER_ENTRIES - Number(existing)) / 2));
    const started = Date.now();
    // As the owner of the tables (the service's own role may not switch their triggers off).
    const owner = new pg.Client({ connectionString: service.databaseUrl });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query('alter table ledger_entries disable trigger user');
      await owner.query(`with tx as (insert into ledger_transactions (id, kind, payment_id, created_at) select gen_random_uuid(), 'payment', gen_random_uuid(), now() from generate_series(1, ${pairs}) returning id)
        insert into ledger_entries (id, transaction_id, account, amount, currency, created_at)
        select gen_random_uuid(), tx.id, e.account, e.amount, 'VND', now() from tx,
          lateral (values ('customer:bench-' || (abs(hashtext(tx.id::text)) % 1000), -1000::bigint), ('provider:sandbox', 1000::bigint)) e(account, amount)`);
      await owner.query('alter table ledger_entries enable trigger user');
      await owner.query(`insert into ledger_balances (account, currency, slot, balance, entries)
        select account, currency, 15, sum(amount), count(*) from ledger_entries where created_at = now() group by account, currency
        on conflict (account, currency, slot) do update set balance = ledger_balances.balance + excluded.balance, entries = ledger_balances.entries + excluded.entries`);
      await owner.query('commit');
      await owner.query('analyze ledger_entries; analyze ledger_balances');
    } finally {
      await owner.end();
    }
    const [{ unbalanced }] = await sql<{ unbalanced: string }>(
      'select count(*) as unbalanced from (select 1 from ledger_entries group by transaction_id, currency having sum(amount) <> 0) x',
    );
    console.log(`unbalanced transactions after the load: ${unbalanced}`);
    const [{ n: entries }] = await sql<{ n: string }>('select count(*) n from ledger_entries');
    console.log(
      `\nledger: ${entries} entries (${((Date.now() - started) / 1000).toFixed(0)} s to load and add to the balances)`,
    );

    const balances = await autocannon({
      url: `${service.url}/admin/ledger/balances`,
      headers: { authorization: `Bearer ${admin.accessToken}` },
      connections: 1,
      duration: 5,
    });
    const [one] = await Promise.all([
      fetch(`${service.url}/admin/ledger/balances`, { headers: { authorization: `Bearer ${admin.accessToken}` } }).then(
        (r) => r.json() as Promise<{ items: unknown[] }>,
      ),
    ]);
    console.log(
      `GET /admin/ledger/balances: ${one.items.length} accounts, p50 ${balances.latency.p50.toFixed(1)} ms, p99 ${balances.latency.p99.toFixed(1)} ms (aim < 50 ms)`,
    );
    const plan = await sql<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${BALANCES_SQL}`);
    console.log('\nplan of the balances query:\n' + plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n'));
    const naive = await sql<{ 'QUERY PLAN': string }>(
      'explain (analyze, buffers) select account, currency, sum(amount), count(*) from ledger_entries group by account, currency order by account, currency',
    );
    console.log(
      '\nfor comparison, summing the entries instead:\n' + naive.map((r) => `  ${r['QUERY PLAN']}`).join('\n'),
    );
  } finally {
    await service.stop();
  }
  process.exit(0);
});
