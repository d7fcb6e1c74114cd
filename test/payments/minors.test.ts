import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import { linkedFamily } from '../support/family';
import { settled } from '../support/sql';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { signInAdmin } from '../support/users';
import { checkout, postSandbox, publishedProduct, sandboxEvents } from '../support/commerce';

const SECRET = 'test-ai-backend-secret-0123456789';
let t: TestApp;
let smtp: SmtpServer;
let backend: AiBackendFake;
let product: Awaited<ReturnType<typeof publishedProduct>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  backend = await startAiBackend();
  t = await startTestApp({ SMTP_URL: smtp.url, AI_BACKEND_URL: backend.url, AI_BACKEND_SECRET: SECRET });
  product = await publishedProduct(t, await signInAdmin(t));
});
afterAll(async () => {
  await t?.close();
  await backend?.close();
  await smtp?.close();
});

const family = () => linkedFamily(t, smtp, 15, 'US');

describe('learners under 18 ask; a guardian approves and pays', () => {
  it("request -> guardian notified -> approval -> payment -> the learner's tier rises -> /ai/memory opens", async () => {
    const { guardian, learner } = await family();
    const memory = () => t.http.get('/ai/memory', { token: learner.accessToken });
    await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_conversation', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect((await memory()).body.error).toBe('tier_required');

    const asked = await checkout(t, learner, { productId: product.id, priceId: product.prices[0].id });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({
      purchaseRequest: { id: expect.any(String), status: 'pending', productId: product.id },
    });
    // The guardian hears of it by e-mail too (through the real SMTP server), with the price and where to decide.
    const mail = await smtp.waitFor(guardian.email, /purchase request for Starter monthly/);
    expect(mail.text).toContain('199,000');
    expect(mail.text).toMatch(/payments\/requests\?id=[0-9a-f-]{36}/);
    expect(mail.text).toContain(asked.body.purchaseRequest.id);
    // The notification is another outbox row of the same commit, delivered beside the mail: wait for both.
    await settled(t);
    const notes = await t.http.get('/notifications', { token: guardian.accessToken });
    expect(
      notes.body.items.some(
        (n: { type: string; data: { purchaseRequestId?: string } }) =>
          n.type === 'guardian' && n.data.purchaseRequestId === asked.body.purchaseRequest.id,
      ),
    ).toBe(true);

    const requests = await t.http.get('/payments/requests', { token: guardian.accessToken });
    expect(requests.body.items[0]).toMatchObject({
      id: asked.body.purchaseRequest.id,
      status: 'pending',
      learnerId: learner.id,
    });
    expect((await t.http.get('/payments/requests', { token: learner.accessToken })).body.items[0].id).toBe(
      asked.body.purchaseRequest.id,
    );

    // The learner cannot approve their own request; another family's guardian does not see it.
    expect(
      (
        await t.http.post(
          `/payments/requests/${asked.body.purchaseRequest.id}/approve`,
          {},
          { token: learner.accessToken },
        )
      ).status,
    ).toBe(403);
    const other = await family();
    expect(
      (
        await t.http.post(
          `/payments/requests/${asked.body.purchaseRequest.id}/approve`,
          {},
          { token: other.guardian.accessToken },
        )
      ).status,
    ).toBe(404);

    const approved = await t.http.post(
      `/payments/requests/${asked.body.purchaseRequest.id}/approve`,
      {},
      { token: guardian.accessToken },
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'pending', provider: 'sandbox', amount: 199000, currency: 'VND' });
    expect(
      (
        await t.http.post(
          `/payments/requests/${asked.body.purchaseRequest.id}/approve`,
          {},
          { token: guardian.accessToken },
        )
      ).status,
    ).toBe(409);
    const { pay } = await sandboxEvents(t, approved.body.redirectUrl);
    expect((await postSandbox(t, pay)).status).toBe(200);

    const payment = await t.http.get(`/payments/${approved.body.id}`, { token: learner.accessToken });
    expect(payment.body).toMatchObject({ status: 'succeeded', payerId: guardian.id, beneficiaryId: learner.id });
    expect((await t.http.get('/auth/me', { token: learner.accessToken })).body.user.tier).toBe('starter');
    expect((await t.http.get('/auth/me', { token: guardian.accessToken })).body.user.tier).toBe('free');
    await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_memory', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect((await memory()).status).toBe(200);
  });

  it('a guardian declines; pays directly for their own learner but not for another child (404)', async () => {
    const { guardian, learner } = await family();
    const asked = await checkout(t, learner, { productId: product.id, priceId: product.prices[1].id });
    const gql = await t.http.gql(
      'mutation($id: ID!) { declinePurchaseRequest(id: $id) { id status } }',
      { id: asked.body.purchaseRequest.id },
      guardian.accessToken,
    );
    expect(gql.body.data.declinePurchaseRequest.status).toBe('DECLINED');
    expect(
      (
        await t.http.post(
          `/payments/requests/${asked.body.purchaseRequest.id}/decline`,
          {},
          { token: guardian.accessToken },
        )
      ).status,
    ).toBe(409);

    const direct = await checkout(t, guardian, {
      productId: product.id,
      priceId: product.prices[1].id,
      learnerId: learner.id,
    });
    expect(direct.status).toBe(201);
    const other = await family();
    const refused = await checkout(t, guardian, {
      productId: product.id,
      priceId: product.prices[1].id,
      learnerId: other.learner.id,
    });
    expect(refused.status).toBe(404);
    expect((await t.http.get('/payments/requests')).status).toBe(401);
    const list = await t.http.gql(
      '{ purchaseRequests(first: 5) { edges { node { id status learnerName } } } }',
      {},
      guardian.accessToken,
    );
    expect(list.body.data.purchaseRequests.edges[0].node.status).toBe('DECLINED');
  });

  it("a guardian's approval takes a returnUrl on WEB_ORIGIN or APP_ORIGIN only (REST and GraphQL); a refused one leaves the request pending", async () => {
    const { guardian, learner } = await family();
    const asked = await checkout(t, learner, { productId: product.id, priceId: product.prices[0].id });
    const id = asked.body.purchaseRequest.id as string;
    const refused = await t.http.post(
      `/payments/requests/${id}/approve`,
      { returnUrl: 'https://app.example.evil.com/paid' },
      { token: guardian.accessToken },
    );
    expect([refused.status, refused.body.error, refused.body.details?.[0].field]).toEqual([
      400,
      'validation_failed',
      'returnUrl',
    ]);
    const q =
      'mutation($id: ID!, $returnUrl: String) { approvePurchaseRequest(id: $id, returnUrl: $returnUrl) { id } }';
    const gql = await t.http.gql(q, { id, returnUrl: 'https://evil.example/phish' }, guardian.accessToken);
    expect(gql.body.errors?.[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'returnUrl' }],
    });
    expect(
      (await t.http.get('/payments/requests', { token: guardian.accessToken })).body.items.find(
        (r: { id: string }) => r.id === id,
      ).status,
    ).toBe('pending');
    const approved = await t.http.gql(q, { id, returnUrl: 'https://app.example/paid' }, guardian.accessToken);
    expect(approved.body.data.approvePurchaseRequest.id).toEqual(expect.any(String));
  });

  it("the beneficiary of a guardian's checkout cannot pay it: no redirectUrl for them (REST, GraphQL, node, viewer) and the sandbox page refuses them", async () => {
    const { guardian, learner } = await family();
    const asked = await checkout(t, learner, { productId: product.id, priceId: product.prices[0].id });
    const approved = await t.http.post(
      `/payments/requests/${asked.body.purchaseRequest.id}/approve`,
      {},
      { token: guardian.accessToken },
    );
    expect(approved.body.redirectUrl).toMatch(/\/payments\/sandbox\//);
    const id = approved.body.id as string;

    const rest = await t.http.get(`/payments/${id}`, { token: learner.accessToken });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id, beneficiaryId: learner.id, payerId: guardian.id, redirectUrl: null });
    expect((await t.http.get(`/payments/${id}`, { token: guardian.accessToken })).body.redirectUrl).toBe(
      approved.body.redirectUrl,
    );
    expect(
      (await t.http.get('/payments/me', { token: learner.accessToken })).body.items.find(
        (p: { id: string }) => p.id === id,
      ).redirectUrl,
    ).toBeNull();
    const query = `query($id: ID!) {
      payment(id: $id) { redirectUrl }
      node(id: $id) { ... on Payment { redirectUrl } }
      viewer { payments(first: 10) { nodes { id redirectUrl } } }
    }`;
    const asLearner = await t.http.gql(query, { id }, learner.accessToken);
    expect(asLearner.body.errors).toBeUndefined();
    expect(asLearner.body.data.payment.redirectUrl).toBeNull();
    expect(asLearner.body.data.node.redirectUrl).toBeNull();
    expect(asLearner.body.data.viewer.payments.nodes.find((p: { id: string }) => p.id === id).redirectUrl).toBeNull();
    const asGuardian = await t.http.gql(query, { id }, guardian.accessToken);
    expect(asGuardian.body.data.payment.redirectUrl).toBe(approved.body.redirectUrl);
    expect(asGuardian.body.data.node.redirectUrl).toBe(approved.body.redirectUrl);

    // Handed the link anyway, the learner signed in gets no Pay; the payer (and the provider's page as such) still does.
    const url = new URL(approved.body.redirectUrl);
    const page = `${url.pathname}${url.search}`;
    const refused = await fetch(`${t.url}${page}`, { headers: { authorization: `Bearer ${learner.accessToken}` } });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('data-pay');
    const payer = await fetch(`${t.url}${page}`, { headers: { authorization: `Bearer ${guardian.accessToken}` } });
    expect(payer.status).toBe(200);
    expect(await payer.text()).toContain('data-pay=');
    expect((await t.http.get(`/payments/${id}`, { token: learner.accessToken })).body.status).toBe('pending');
  });
});
