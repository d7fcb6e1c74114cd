import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, type SignedIn, signInAdmin, signUp, uniqueEmail } from '../support/users';

let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
let guardian: SignedIn;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // Behind a proxy, so each test writes from an address of its own (X-Forwarded-For).
  t = await startTestApp({ SMTP_URL: smtp.url, TRUST_PROXY: '1', CONTACT_TO: 'inbox@platform.example' });
  admin = await signInAdmin(t);
  guardian = await signUp(t, adultSignup());
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const freshIp = () => `10.${randomInt(255)}.${randomInt(255)}.${randomInt(1, 255)}`;
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const message = (overrides: Record<string, unknown> = {}) => ({
  name: 'Minh',
  email: uniqueEmail('writer'),
  subject: 'Lessons in Khmer?',
  message: 'Will you add Khmer?',
  ...overrides,
});

const SEND = 'mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }';
const LIST =
  'query($status: ContactStatus) { contactMessages(status: $status, first: 100) { edges { node { id email subject status resolvedAt } } pageInfo { hasNextPage endCursor } } }';

describe('POST /contact and { sendContactMessage }', () => {
  it("stores the message, acknowledges it in the sender's language and forwards it to CONTACT_TO", async () => {
    const body = message({ locale: 'vi' });
    const reply = await t.http.post('/contact', body, from(freshIp()));
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({ id: expect.any(String) });
    const ack = await smtp.waitFor(body.email, /Chúng tôi đã nhận/);
    expect(ack.text).toContain(reply.body.id);
    const forwarded = await smtp.waitFor('inbox@platform.example', /Khmer/);
    expect(forwarded.text).toContain(body.email);

    const english = message();
    const gql = await t.http.rest('POST', '/graphql', {
      body: { query: SEND, variables: { input: english } },
      ...from(freshIp()),
    });
    expect(gql.body.data.sendContactMessage.id).toEqual(expect.any(String));
    await smtp.waitFor(english.email, /We received your message/);

    const listed = await t.http.get('/contact/messages?status=open&limit=100', { token: admin.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((m: { id: string }) => m.id)).toEqual(
      expect.arrayContaining([reply.body.id, gql.body.data.sendContactMessage.id]),
    );
  });

  it('acknowledges with fixed text only: nothing the sender wrote reaches the address they gave (both languages)', async () => {
    for (const locale of ['en', 'vi']) {
      const body = message({
        locale,
        name: 'Win a prize at evil.example',
        subject: `Your account is locked (${locale}): https://evil.example/login`,
        message: 'Call +1 555 0100 now',
      });
      const reply = await t.http.post('/contact', body, from(freshIp()));
      expect(reply.status).toBe(202);
      const ack = await smtp.waitFor(body.email);
      expect(ack.subject).toBe(locale === 'vi' ? 'Chúng tôi đã nhận được thư của bạn' : 'We received your message');
      expect(ack.text).toContain(reply.body.id);
      for (const written of ['evil.example', 'prize', 'locked', '555']) {
        expect(ack.subject, locale).not.toContain(written);
        expect(ack.text, locale).not.toContain(written);
      }
      // The platform's own inbox still gets all of it.
      const forwarded = await smtp.waitFor('inbox@platform.example', new RegExp(`locked \\(${locale}\\)`));
      expect(forwarded.text).toContain('Call +1 555 0100 now');
    }
  });

  it('answers a filled honeypot with 202 but stores and sends nothing', async () => {
    const body = message({ website: 'http://spam.example' });
    const reply = await t.http.post('/contact', body, from(freshIp()));
    expect(reply.status).toBe(202);
    expect(reply.body.id).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.some((m) => m.to.includes(body.email))).toBe(false);
    const listed = await t.http.gql(LIST, {}, admin.accessToken);
    expect(
      listed.body.data.contactMessages.edges.some((e: { node: { id: string } }) => e.node.id === reply.body.id),
    ).toBe(false);
  });

  it('refuses missing and over-long fields and a bad address with 400 and details', async () => {
    const ip = freshIp();
    for (const [field, body] of [
      ['name', message({ name: '' })],
      ['email', message({ email: 'not-an-address' })],
      ['subject', message({ subject: 'x'.repeat(201) })],
      ['message', message({ message: 'x'.repeat(5001) })],
      ['locale', message({ locale: 'fr' })],
    ] as const) {
      const reply = await t.http.post('/contact', body, from(ip));
      expect(reply.status, field).toBe(400);
      expect(reply.body.error).toBe('validation_failed');
      expect(reply.body.details.map((d: { field: string }) => d.field).join(','), field).toContain(field);
    }
  });

  it('takes 5 messages an hour per address, also when they arrive at once, then 429 with Retry-After', async () => {
    const ip = freshIp();
    const replies = await Promise.all(Array.from({ length: 8 }, () => t.http.post('/contact', message(), from(ip))));
    expect(replies.filter((r) => r.status === 202)).toHaveLength(5);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0].body.error).toBe('rate_limited');
    expect(refused[0].body.retryAfter).toBeGreaterThan(3000);
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(3000);
    // Another address is not affected.
    expect((await t.http.post('/contact', message(), from(freshIp()))).status).toBe(202);
  });
});

describe('the admin inbox', () => {
  it('lists and resolves messages (admins), once; audited', async () => {
    const sent = await t.http.post('/contact', message(), from(freshIp()));
    const resolved = await t.http.post(`/contact/messages/${sent.body.id}/resolve`, {}, { token: admin.accessToken });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ id: sent.body.id, status: 'resolved', resolvedAt: expect.any(String) });
    expect(
      (await t.http.post(`/contact/messages/${sent.body.id}/resolve`, {}, { token: admin.accessToken })).status,
    ).toBe(409);
    const gql = await t.http.gql(
      'mutation($id: ID!) { resolveContactMessage(id: $id) { id } }',
      { id: sent.body.id },
      admin.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const open = await t.http.gql(LIST, { status: 'OPEN' }, admin.accessToken);
    expect(open.body.data.contactMessages.edges.some((e: { node: { id: string } }) => e.node.id === sent.body.id)).toBe(
      false,
    );
    const audit = await t.http.get(`/admin/audit?targetId=${sent.body.id}`, { token: admin.accessToken });
    expect(audit.body.items.map((e: { action: string; actorId: string }) => [e.action, e.actorId])).toEqual([
      ['contact.message_resolved', admin.id],
    ]);
  });

  it('answers 404 for unknown messages, 400 for a bad status, 401 and 403 for others', async () => {
    expect(
      (
        await t.http.post(
          '/contact/messages/00000000-0000-4000-8000-000000000000/resolve',
          {},
          { token: admin.accessToken },
        )
      ).status,
    ).toBe(404);
    expect((await t.http.get('/contact/messages?status=lost', { token: admin.accessToken })).status).toBe(400);
    expect((await t.http.get('/contact/messages')).status).toBe(401);
    const refused = await t.http.get('/contact/messages', { token: guardian.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    expect((await t.http.gql(LIST, {}, guardian.accessToken)).body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(
      (
        await t.http.post(
          '/contact/messages/00000000-0000-4000-8000-000000000000/resolve',
          {},
          { token: guardian.accessToken },
        )
      ).status,
    ).toBe(403);
  });
});
