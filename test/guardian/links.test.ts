import { beforeAll, describe, expect, it } from 'vitest';
import { NotificationType } from '../../src/notifications/notification.entity';
import type { TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { withMailAndApp } from '../support/setup';
import { type SmtpServer, tokenFrom } from '../support/smtp';
import {
  adultSignup,
  bornYearsAgo,
  learnerSignup,
  type SignedIn,
  signInAdmin,
  signUp,
  signUpVerified,
  uniqueEmail,
  verifiedGuardian,
  verifiedLearnerOfAge,
} from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const LINK = 'id status primary learnerEmail guardian { id displayName } learner { id } history { status actorId }';
const declare = (guardian: SignedIn, learnerEmail: string) =>
  t.http.post('/guardian/declare', { learnerEmail }, { token: guardian.accessToken });

describe('declaring a learner by e-mail', () => {
  it('waits for the learner, who is mailed and notified, and approves', async () => {
    const guardian = await verifiedGuardian(t, smtp, { displayName: 'Hoa Tran' });
    const learner = await verifiedLearnerOfAge(t, smtp, 14);
    const declared = await declare(guardian, learner.email.toUpperCase());
    expect(declared.status).toBe(201);
    expect(declared.body).toMatchObject({
      status: 'pending',
      primary: false,
      learnerEmail: learner.email,
      guardian: { id: guardian.id, displayName: 'Hoa Tran' },
      learner: null,
    });

    const mail = await smtp.waitFor(learner.email, /guardian/i);
    expect(mail.text).toContain('Hoa Tran');
    expect(tokenFrom(mail)).toBeTruthy();
    // The notification is another effect of the same job's commit, delivered on its own (maybe after the mail).
    const guardianNotice = async () =>
      (await t.http.get('/notifications', { token: learner.accessToken })).body.items.find(
        (n: { type: string }) => n.type === 'guardian',
      );
    await expect
      .poll(guardianNotice, { timeout: 10_000 })
      .toMatchObject({ type: 'guardian', data: { linkId: declared.body.id } });

    const seen = await t.http.get('/guardian/me/links', { token: learner.accessToken });
    expect(seen.body.items.map((l: { id: string }) => l.id)).toEqual([declared.body.id]);

    const approved = await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, {
      token: learner.accessToken,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'active', primary: true, activatedAt: expect.any(String) });
    expect(approved.body.history.map((h: { status: string; actorId: string }) => [h.status, h.actorId])).toEqual([
      ['pending', guardian.id],
      ['active', learner.id],
    ]);
    const twice = await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, {
      token: learner.accessToken,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('conflict');
  });

  it('in GraphQL, and confirmed by the mailed token', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await verifiedLearnerOfAge(t, smtp, 15);
    const declared = await t.http.gql(
      `mutation($input: DeclareLearnerInput!) { declareLearner(input: $input) { ${LINK} } }`,
      { input: { learnerEmail: learner.email } },
      guardian.accessToken,
    );
    expect(declared.body.data.declareLearner.status).toBe('PENDING');
    const mail = await smtp.waitFor(learner.email, /guardian/i);
    const confirmed = await t.http.gql(
      `mutation($input: ConfirmLinkInput!) { confirmGuardianLink(input: $input) { ${LINK} } }`,
      { input: { token: tokenFrom(mail) } },
    );
    expect(confirmed.body.data.confirmGuardianLink).toMatchObject({ status: 'ACTIVE', primary: true });
    const reused = await t.http.post('/guardian/links/confirm', { token: tokenFrom(mail) });
    expect(reused.status).toBe(400);
    const list = await t.http.gql('{ myGuardianLinks { edges { node { id status } } } }', {}, guardian.accessToken);
    expect(list.body.data.myGuardianLinks.edges).toEqual([
      { node: { id: declared.body.data.declareLearner.id, status: 'ACTIVE' } },
    ]);
  });

  it('answers the same for an address without an account, and links once that learner signs up and verifies the address', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const email = uniqueEmail('future-learner');
    const declared = await declare(guardian, email);
    expect(declared.status).toBe(201);
    expect(declared.body).toMatchObject({ status: 'pending', learner: null, learnerEmail: email });
    const learner = await signUpVerified(t, smtp, learnerSignup(bornYearsAgo(14), { email }));
    const approved = await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, {
      token: learner.accessToken,
    });
    expect(approved.status).toBe(200);
    expect(approved.body.learner.id).toBe(learner.id);
  });

  it('activates a child under 13 at once when the child named this guardian, and the child becomes active', async () => {
    const guardianEmail = uniqueEmail('parent');
    const child = await verifiedLearnerOfAge(t, smtp, 10, { guardianEmail });
    expect(child.user.status).toBe('pending_guardian');
    const blocked = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'marketing_email' },
      { token: child.accessToken },
    );
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toBe('guardian_required');

    const guardian = await verifiedGuardian(t, smtp, { email: guardianEmail });
    const declared = await declare(guardian, child.email);
    expect(declared.body).toMatchObject({ status: 'active', primary: true });
    expect((await t.http.get('/auth/me', { token: child.accessToken })).body.user.status).toBe('active');

    // Without a guardian again, the child waits again.
    await t.http.post(`/guardian/links/${declared.body.id}/revoke`, undefined, { token: guardian.accessToken });
    expect((await t.http.get('/auth/me', { token: child.accessToken })).body.user.status).toBe('pending_guardian');
  });

  it('refuses bad bodies (400), no token (401), unverified guardians (403 email_not_verified) and other roles (403)', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    for (const body of [{}, { learnerEmail: 'nope' }, { learnerEmail: 42 }, { learnerEmail: guardian.email }]) {
      const reply = await t.http.post('/guardian/declare', body, { token: guardian.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].field).toBe('learnerEmail');
    }
    expect((await t.http.post('/guardian/declare', { learnerEmail: uniqueEmail() })).status).toBe(401);
    const unverified = await signUp(t, adultSignup({ role: 'guardian' }));
    const refused = await declare(unverified, uniqueEmail());
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('email_not_verified');
    const learner = await verifiedLearnerOfAge(t, smtp, 16);
    const wrongRole = await declare(learner, uniqueEmail());
    expect(wrongRole.status).toBe(403);
    expect(wrongRole.body.error).toBe('forbidden');
    const gql = await t.http.gql(
      'mutation { declareLearner(input: { learnerEmail: "a@example.com" }) { id } }',
      {},
      unverified.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('EMAIL_NOT_VERIFIED');
  });
});

describe('limits', () => {
  it('leaves exactly 5 links of 20 simultaneous declares; the rest are 409 limit_reached', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const replies = await Promise.all(Array.from({ length: 20 }, () => declare(guardian, uniqueEmail('many'))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409 && r.body.error === 'limit_reached')).toBe(true);
    expect((await t.http.get('/guardian/me/links', { token: guardian.accessToken })).body.items).toHaveLength(5);
    // Revoking one makes room for one.
    const first = replies.find((r) => r.status === 201)!;
    await t.http.post(`/guardian/links/${first.body.id}/revoke`, undefined, { token: guardian.accessToken });
    expect((await declare(guardian, uniqueEmail())).status).toBe(201);
    expect((await declare(guardian, uniqueEmail())).body.error).toBe('limit_reached');
  });

  it('answers 409 conflict when the learner is declared twice', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await verifiedLearnerOfAge(t, smtp, 14);
    expect((await declare(guardian, learner.email)).status).toBe(201);
    const again = await declare(guardian, learner.email);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('conflict');
  });

  it('leaves exactly one primary guardian when two links are approved at once', async () => {
    const [a, b] = [await verifiedGuardian(t, smtp), await verifiedGuardian(t, smtp)];
    const learner = await verifiedLearnerOfAge(t, smtp, 14);
    const links = [(await declare(a, learner.email)).body.id, (await declare(b, learner.email)).body.id];
    const approved = await Promise.all(
      links.map((id) => t.http.post(`/guardian/links/${id}/approve`, undefined, { token: learner.accessToken })),
    );
    expect(approved.map((r) => r.status)).toEqual([200, 200]);
    expect(approved.filter((r) => r.body.primary)).toHaveLength(1);
    // Revoking the primary passes the role to the other guardian.
    const primary = approved.find((r) => r.body.primary)!;
    const primaryGuardian = primary.body.guardian.id === a.id ? a : b;
    await t.http.post(`/guardian/links/${primary.body.id}/revoke`, undefined, { token: primaryGuardian.accessToken });
    const remaining = (await t.http.get('/guardian/me/links', { token: learner.accessToken })).body.items.filter(
      (l: { status: string }) => l.status === 'active',
    );
    expect(remaining).toHaveLength(1);
    expect(remaining[0].primary).toBe(true);
  });
});

describe('who may approve and revoke', () => {
  it("hides another family's link (404) and lets only the learner or an admin approve", async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const stranger = await verifiedGuardian(t, smtp);
    const learner = await verifiedLearnerOfAge(t, smtp, 14);
    const link = (await declare(guardian, learner.email)).body;
    for (const action of ['approve', 'revoke']) {
      const reply = await t.http.post(`/guardian/links/${link.id}/${action}`, undefined, {
        token: stranger.accessToken,
      });
      expect(reply.status).toBe(404);
      expect(reply.body.error).toBe('not_found');
    }
    expect(
      (await t.http.post('/guardian/links/not-an-id/approve', undefined, { token: stranger.accessToken })).status,
    ).toBe(404);
    expect((await t.http.post(`/guardian/links/${link.id}/approve`)).status).toBe(401);
    const self = await t.http.post(`/guardian/links/${link.id}/approve`, undefined, { token: guardian.accessToken });
    expect(self.status).toBe(403);
    const admin = await signInAdmin(t);
    const byAdmin = await t.http.gql(
      'mutation($id: ID!) { approveGuardianLink(id: $id) { status history { status actorId } } }',
      { id: link.id },
      admin.accessToken,
    );
    expect(byAdmin.body.data.approveGuardianLink.history.at(-1)).toEqual({ status: 'ACTIVE', actorId: admin.id });
  });

  it('lets a learner end a link from 16, not before', async () => {
    for (const [age, status] of [
      [15, 403],
      [16, 200],
    ] as const) {
      const guardian = await verifiedGuardian(t, smtp);
      const learner = await verifiedLearnerOfAge(t, smtp, age);
      const link = (await declare(guardian, learner.email)).body;
      await t.http.post(`/guardian/links/${link.id}/approve`, undefined, { token: learner.accessToken });
      const reply = await t.http.post(`/guardian/links/${link.id}/revoke`, undefined, { token: learner.accessToken });
      expect(reply.status, `age ${age}`).toBe(status);
    }
  });

  it('revokes once: a second revoke is 409', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const link = (await declare(guardian, uniqueEmail())).body;
    const revoked = await t.http.gql(
      'mutation($id: ID!) { revokeGuardianLink(id: $id) { status revokedAt } }',
      { id: link.id },
      guardian.accessToken,
    );
    expect(revoked.body.data.revokeGuardianLink).toMatchObject({ status: 'REVOKED', revokedAt: expect.any(String) });
    expect(
      (await t.http.post(`/guardian/links/${link.id}/revoke`, undefined, { token: guardian.accessToken })).status,
    ).toBe(409);
  });
});

describe("children without an e-mail, and the guardian's view of a learner", () => {
  it('creates a managed child with an active link, shown to the guardian only', async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'DE', locale: 'vi' });
    const added = await t.http.post(
      '/guardian/learners',
      { displayName: 'Bé Na', birthDate: '2018-05-01' },
      { token: guardian.accessToken },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ status: 'active', primary: true, learner: { id: expect.any(String) } });
    expect(added.body.learnerEmail).toMatch(/@placeholder\.invalid$/);
    const childId = added.body.learner.id;

    const view = await t.http.get(`/guardian/learners/${childId}`, { token: guardian.accessToken });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      id: childId,
      displayName: 'Bé Na',
      birthDate: '2018-05-01',
      country: 'DE',
      locale: 'vi',
      status: 'active',
    });
    const gql = await t.http.gql(
      'query($id: ID!) { linkedLearner(learnerId: $id) { displayName } }',
      { id: childId },
      guardian.accessToken,
    );
    expect(gql.body.data.linkedLearner.displayName).toBe('Bé Na');

    const stranger = await verifiedGuardian(t, smtp);
    expect((await t.http.get(`/guardian/learners/${childId}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await t.http.get(`/guardian/learners/${childId}/ai-access`, { token: stranger.accessToken })).status).toBe(
      404,
    );
  });

  it('refuses a bad child profile with 400 and details', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    for (const [body, field] of [
      [{ displayName: '', birthDate: '2018-05-01' }, 'displayName'],
      [{ displayName: 'Na', birthDate: '05/01/2018' }, 'birthDate'],
      [{ displayName: 'Na', birthDate: '2000-01-01' }, 'birthDate'],
      [{ displayName: 'Na', birthDate: '2018-05-01', country: 'XX' }, 'country'],
    ] as const) {
      const reply = await t.http.post('/guardian/learners', body, { token: guardian.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].field).toBe(field);
    }
  });

  it('reads and restricts AI access of a linked learner, in REST and GraphQL', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const childId = (
      await t.http.post(
        '/guardian/learners',
        { displayName: 'Minh', birthDate: '2015-03-03' },
        { token: guardian.accessToken },
      )
    ).body.learner.id;
    const path = `/guardian/learners/${childId}/ai-access`;
    expect((await t.http.get(path, { token: guardian.accessToken })).body).toEqual({
      enabled: true,
      memoryEnabled: true,
      dailyMessageLimit: null,
    });
    const put = await t.http.put(
      path,
      { memoryEnabled: false, dailyMessageLimit: 10 },
      { token: guardian.accessToken },
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ enabled: true, memoryEnabled: false, dailyMessageLimit: 10 });
    const gql = await t.http.gql(
      'mutation($id: ID!) { updateLearnerAiAccess(learnerId: $id, input: { enabled: false }) { enabled memoryEnabled dailyMessageLimit } }',
      { id: childId },
      guardian.accessToken,
    );
    expect(gql.body.data.updateLearnerAiAccess).toEqual({
      enabled: false,
      memoryEnabled: false,
      dailyMessageLimit: 10,
    });
    for (const body of [{ dailyMessageLimit: -1 }, { enabled: 'yes' }]) {
      const bad = await t.http.put(path, body, { token: guardian.accessToken });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('validation_failed');
    }
    expect((await t.http.get(path)).status).toBe(401);
  });
});

describe("guardians hear of their learners' events", () => {
  it("sends the learner's progress to guardians with an active link, not to a pending one", async () => {
    const [active, pending] = [await verifiedGuardian(t, smtp), await verifiedGuardian(t, smtp)];
    const learner = await verifiedLearnerOfAge(t, smtp, 14);
    const link = (await declare(active, learner.email)).body;
    await t.http.post(`/guardian/links/${link.id}/approve`, undefined, { token: learner.accessToken });
    await declare(pending, learner.email);

    const { services } = (await homeOf(t, learner.id)).unit();
    await services.notifications.notifyWithGuardians(learner.id, NotificationType.progress, {
      learner: {
        title: { en: 'Lesson done', vi: 'Xong bài' },
        body: { en: 'Well done!', vi: 'Giỏi lắm!' },
        data: { lessonId: 'l1' },
      },
      guardian: {
        title: { en: 'Your learner finished a lesson', vi: 'Con đã học xong một bài' },
        body: { en: 'See the progress.', vi: 'Xem tiến độ.' },
        data: { lessonId: 'l1' },
      },
    });
    // The pending guardian's request reaches the learner through a job, before or after this one.
    const own = (await t.http.get('/notifications', { token: learner.accessToken })).body.items.find(
      (n: { type: string }) => n.type === 'progress',
    );
    expect(own).toMatchObject({ type: 'progress', title: 'Lesson done', data: { lessonId: 'l1' } });
    const guardians = (await t.http.get('/notifications', { token: active.accessToken })).body.items;
    expect(guardians[0]).toMatchObject({
      type: 'progress',
      title: 'Your learner finished a lesson',
      data: { lessonId: 'l1', learnerId: learner.id },
    });
    expect((await t.http.get('/notifications', { token: pending.accessToken })).body.items).toEqual([]);
  });
});
