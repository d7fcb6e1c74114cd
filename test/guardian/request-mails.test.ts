import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASK_LEARNER_JOB } from '../../src/guardian/guardian.jobs';
import { checkout, publishedProduct } from '../support/commerce';
import { startTestApp, type TestApp } from '../support/app';
import { linkFamily } from '../support/family';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { fewestStatements } from '../support/sql';
import { learnerOfAge, type SignedIn, signInAdmin, uniqueEmail, verifiedGuardian } from '../support/users';

/**
 * Mails that other people's requests send to an address (a guardian asking to link, a
 * learner asking to buy) are limited per recipient, in the shared rate-limit store, so that one
 * address cannot be flooded from one or many instances. The requests themselves still succeed
 * (the link or the purchase request is made and shown in the app); the extra mails are not sent.
 * Subjects never carry the sender's chosen name. And declaring an address does the same work
 * whether or not it has an account.
 */
const LIMIT = 3;
let t: TestApp;
let other: TestApp;
let smtp: SmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url, RATE_LIMIT_REQUEST_MAILS: String(LIMIT) });
  // A second instance on the same database: the limit is one count for both.
  other = await startTestApp({ SMTP_URL: smtp.url, RATE_LIMIT_REQUEST_MAILS: String(LIMIT) }, t.databaseUrl);
}, 120_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
  await smtp?.close();
});

/** Until no ask-the-learner job is waiting or running, and no mail or job waits in the outbox. */
async function jobsDone(): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    // Done jobs are removed (removeOnComplete), and delivered outbox rows too; each region has its own.
    const waiting = await Promise.all(
      t.app.deps.regions.map(async (region) => {
        const { total: jobs } = await region.jobs.agenda.queryJobs({ names: [ASK_LEARNER_JOB] });
        const [{ n }] = await region.sql.query<{ n: number }>(
          `select count(*)::int as n from outbox where kind in ('mail', 'job')`,
          [],
        );
        return jobs + n;
      }),
    );
    const total = waiting.reduce((sum, count) => sum + count, 0);
    if (!total) return;
    if (Date.now() > deadline) throw new Error(`${total} jobs still waiting`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The link request mails to an address (its sign-up's verification mail aside). */
const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address) && /guardian/i.test(m.subject));

/** Declares `address`, then revokes the link, so that the next declaration makes a new one. */
async function declareAndRevoke(app: TestApp, guardian: SignedIn, address: string): Promise<number> {
  const declared = await app.http.post('/guardian/declare', { learnerEmail: address }, { token: guardian.accessToken });
  // The learner is asked by a job after the commit; a link revoked before it runs asks nothing.
  await jobsDone();
  if (declared.status === 201)
    await app.http.post(`/guardian/links/${declared.body.id}/revoke`, undefined, { token: guardian.accessToken });
  return declared.status;
}

describe('guardian link requests to one address', () => {
  it('mails at most the limit per hour to one address, across instances; every request is still made', async () => {
    expect(t.app.deps.limits.store).not.toBe('memory');
    const guardians = [await verifiedGuardian(t, smtp), await verifiedGuardian(t, smtp)];
    const target = await learnerOfAge(t, 14);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push(await declareAndRevoke(i % 2 ? other : t, guardians[i % 2], target.email));
    expect(statuses).toEqual(Array(8).fill(201));
    await jobsDone();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(target.email)).toHaveLength(LIMIT);
    // Each request is in the app all the same: the learner sees every link's history (revoked ones included) in notifications.
    const notified = async () =>
      (await t.http.get('/notifications', { token: target.accessToken })).body.items.filter(
        (n: { type: string }) => n.type === 'guardian',
      ).length;
    for (let i = 0; i < 50 && (await notified()) < 8; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await notified()).toBe(8);

    // Another address is counted on its own.
    const elsewhere = uniqueEmail('elsewhere');
    expect(await declareAndRevoke(t, guardians[0], elsewhere)).toBe(201);
    await smtp.waitFor(elsewhere, /guardian/i, 10_000);
  });

  it("keeps the guardian's chosen name out of the subject, and quotes it in the text", async () => {
    const name = 'URGENT: your account is locked, call +1 555 0100';
    const guardian = await verifiedGuardian(t, smtp, { displayName: name });
    const learner = await learnerOfAge(t, 14);
    expect(
      (await t.http.post('/guardian/declare', { learnerEmail: learner.email }, { token: guardian.accessToken })).status,
    ).toBe(201);
    const mail = await smtp.waitFor(learner.email, /guardian/i, 10_000);
    expect(mail.subject).toBe('A guardian asks to link to your learning account');
    expect(mail.subject).not.toContain('URGENT');
    expect(mail.text).toContain(`“${name}”`);
  });

  it('declares an address with an account with the same statements as one without', async () => {
    // Two guardians, three declarations each: within the five links a guardian may have.
    const [withAccounts, withoutAccounts] = [await verifiedGuardian(t, smtp), await verifiedGuardian(t, smtp)];
    const learners = [await learnerOfAge(t, 14), await learnerOfAge(t, 14), await learnerOfAge(t, 14)];
    await jobsDone();
    // The caller's account is read once per instance, then kept until it changes: the guardians' sign-up
    // and verification announce their changes a moment later, and each such drop costs a read.
    const settled = async (guardian: SignedIn) => {
      await expect
        .poll(
          async () => (await fewestStatements(t, () => t.http.get('/auth/me', { token: guardian.accessToken }))).count,
          { timeout: 10_000, interval: 100 },
        )
        .toBe(0);
    };
    const declareEach = async (guardian: SignedIn, addresses: string[]) => {
      await settled(guardian);
      let n = 0;
      const { count } = await fewestStatements(t, async () => {
        const reply = await t.http.post(
          '/guardian/declare',
          { learnerEmail: addresses[n++] },
          { token: guardian.accessToken },
        );
        expect(reply.status).toBe(201);
      });
      return count;
    };
    const existing = await declareEach(
      withAccounts,
      learners.map((l) => l.email),
    );
    await jobsDone();
    const missing = await declareEach(withoutAccounts, [
      uniqueEmail('nobody'),
      uniqueEmail('nobody'),
      uniqueEmail('nobody'),
    ]);
    expect(existing).toBeGreaterThan(0);
    expect(existing).toBe(missing);
  });
});

describe('purchase requests to a guardian', () => {
  it('mail the guardian at most the limit per hour, each request made; the subject names the product, not the learner', async () => {
    const product = await publishedProduct(t, await signInAdmin(t));
    const guardian = await verifiedGuardian(t, smtp, { country: 'US' });
    const learner = await learnerOfAge(t, 15, { country: 'US', displayName: 'Click here: evil.example' });
    await linkFamily(t, guardian, learner);
    const requests = [];
    for (let i = 0; i < LIMIT + 2; i++)
      requests.push(await checkout(t, learner, { productId: product.id, priceId: product.prices[0].id }));
    expect(requests.map((r) => r.status)).toEqual(Array(LIMIT + 2).fill(202));
    await jobsDone();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mails = smtp.received.filter((m) => m.to.includes(guardian.email) && /purchase request/i.test(m.subject));
    expect(mails).toHaveLength(LIMIT);
    expect(mails[0].subject).not.toContain('evil');
    expect(mails[0].text).toContain('“Click here: evil.example”');
    const listed = await t.http.get('/payments/requests', { token: guardian.accessToken });
    expect(new Set(listed.body.items.map((r: { id: string }) => r.id)).size).toBeGreaterThanOrEqual(
      new Set(requests.map((r) => r.body.purchaseRequest.id)).size,
    );
  });
});
