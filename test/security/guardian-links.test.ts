import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { type SmtpServer, tokenFrom } from '../support/smtp';
import {
  bornYearsAgo,
  learnerOfAge,
  learnerSignup,
  signUp,
  uniqueEmail,
  verifiedGuardian,
  verifiedLearnerOfAge,
} from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const LINK = 'id status learner { id displayName email } learnerEmail guardian { id }';
/** A link as seen by its guardian, without what differs between any two links (ids, times, the address). */
const shape = (link: Record<string, unknown>) => ({
  ...link,
  id: undefined,
  learnerEmail: undefined,
  createdAt: undefined,
  history: (link.history as { status: string }[]).map((h) => h.status),
});

describe('declaring a learner', () => {
  it('answers and lists a pending link the same whether or not the address has an account', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const existing = await verifiedLearnerOfAge(t, smtp, 14);
    const withAccount = await t.http.post(
      '/guardian/declare',
      { learnerEmail: existing.email },
      { token: guardian.accessToken },
    );
    const without = await t.http.post(
      '/guardian/declare',
      { learnerEmail: uniqueEmail('nobody') },
      { token: guardian.accessToken },
    );
    expect([withAccount.status, without.status]).toEqual([201, 201]);
    expect(withAccount.body.learner).toBeNull();
    expect(shape(withAccount.body)).toEqual(shape(without.body));

    const listed = await t.http.get('/guardian/me/links', { token: guardian.accessToken });
    const [a, b] = [withAccount.body.id, without.body.id].map((id) =>
      listed.body.items.find((l: { id: string }) => l.id === id),
    );
    expect(shape(a)).toEqual(shape(b));
    const gql = await t.http.gql(
      `mutation($input: DeclareLearnerInput!) { declareLearner(input: $input) { ${LINK} } }`,
      { input: { learnerEmail: (await learnerOfAge(t, 15)).email } },
      guardian.accessToken,
    );
    expect(gql.body.data.declareLearner.learner).toBeNull();

    // Once active, the learner appears.
    const approved = await t.http.post(`/guardian/links/${withAccount.body.id}/approve`, undefined, {
      token: existing.accessToken,
    });
    expect(approved.body.learner).toMatchObject({ id: existing.id, email: existing.email });
  });

  it('a pending link to an address is neither seen nor approved by an unverified account of that address', async () => {
    const guardian = await verifiedGuardian(t, smtp, { displayName: 'Private Guardian' });
    const email = uniqueEmail('later');
    const declared = await t.http.post('/guardian/declare', { learnerEmail: email }, { token: guardian.accessToken });
    const squatter = await signUp(t, learnerSignup(bornYearsAgo(14), { email }));

    const seen = await t.http.get('/guardian/me/links', { token: squatter.accessToken });
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body)).not.toContain('Private Guardian');
    expect(JSON.stringify(seen.body)).not.toContain(guardian.email);
    // An unverified account approves no link at all: refused before any link is looked at.
    const approve = await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, {
      token: squatter.accessToken,
    });
    expect([approve.status, approve.body.error]).toEqual([403, 'email_not_verified']);
    const gql = await t.http.gql(
      'mutation($id: ID!) { approveGuardianLink(id: $id) { id } }',
      { id: declared.body.id },
      squatter.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('EMAIL_NOT_VERIFIED');
    expect(
      (await t.http.post(`/guardian/links/${declared.body.id}/revoke`, undefined, { token: squatter.accessToken }))
        .status,
    ).toBe(404);

    // Whoever holds the mailbox proves it: by verifying the address ...
    const verification = await smtp.waitFor(email, /confirm|xác nhận/i);
    await t.http.post('/auth/verify-email', { token: tokenFrom(verification) });
    const now = await t.http.get('/guardian/me/links', { token: squatter.accessToken });
    expect(now.body.items.map((l: { id: string }) => l.id)).toContain(declared.body.id);
    expect(
      (await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, { token: squatter.accessToken }))
        .status,
    ).toBe(200);
  });

  it('... or by the token mailed with the request, once the account of the address is verified', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const email = uniqueEmail('mailbox');
    await t.http.post('/guardian/declare', { learnerEmail: email }, { token: guardian.accessToken });
    await signUp(t, learnerSignup(bornYearsAgo(14), { email }));
    const request = await smtp.waitFor(email, /guardian|giám hộ/i);
    // The token proves the mailbox, not that whoever signed up with the address holds it.
    const early = await t.http.post('/guardian/links/confirm', { token: tokenFrom(request) });
    expect([early.status, early.body.error]).toEqual([403, 'email_not_verified']);
    const verification = await smtp.waitFor(email, /confirm|xác nhận/i);
    expect((await t.http.post('/auth/verify-email', { token: tokenFrom(verification) })).status).toBe(200);
    // The refusal left the token usable.
    const confirmed = await t.http.post('/guardian/links/confirm', { token: tokenFrom(request) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('active');
  });
});

describe('an unverified sign-up with a child’s address cannot take the child’s guardian', () => {
  it('the squatter may not approve (403 email_not_verified, REST and GraphQL); the real owner takes the account back by a password reset and approves', async () => {
    const guardian = await verifiedGuardian(t, smtp, { displayName: 'Real Parent' });
    const email = uniqueEmail('child');
    // The squatter signs up first with the child's address and never verifies it; the guardian then declares that address.
    const squatter = await signUp(t, learnerSignup(bornYearsAgo(14), { email }));
    const declared = await t.http.post('/guardian/declare', { learnerEmail: email }, { token: guardian.accessToken });
    expect(declared.body.status).toBe('pending');
    await smtp.waitFor(email, /guardian|giám hộ/i);
    // The notification is delivered on its own after the job's commit, maybe after the mail.
    const notifiedLink = async () =>
      (await t.http.get('/notifications', { token: squatter.accessToken })).body.items.find(
        (n: { type: string }) => n.type === 'guardian',
      )?.data.linkId;
    await expect.poll(notifiedLink, { timeout: 10_000 }).toBe(declared.body.id);
    const linkId = declared.body.id;

    // The squatter is the link's learner, and sees it, but not the guardian's address: REST and GraphQL.
    const listed = await t.http.get('/guardian/me/links', { token: squatter.accessToken });
    expect(listed.body.items.find((l: { id: string }) => l.id === linkId)?.guardian).toEqual({
      id: guardian.id,
      displayName: 'Real Parent',
      email: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(guardian.email);
    const graph = await t.http.gql(
      '{ myGuardianLinks(first: 10) { nodes { id guardian { email } } } viewer { guardianLinks(first: 10) { nodes { guardian { email } } } } }',
      {},
      squatter.accessToken,
    );
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.myGuardianLinks.nodes).toEqual([{ id: linkId, guardian: { email: null } }]);
    expect(graph.body.data.viewer.guardianLinks.nodes).toEqual([{ guardian: { email: null } }]);
    expect(JSON.stringify(graph.body)).not.toContain(guardian.email);

    const rest = await t.http.post(`/guardian/links/${linkId}/approve`, undefined, { token: squatter.accessToken });
    expect([rest.status, rest.body.error]).toEqual([403, 'email_not_verified']);
    const gql = await t.http.gql(
      'mutation($id: ID!) { approveGuardianLink(id: $id) { id status } }',
      { id: linkId },
      squatter.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('EMAIL_NOT_VERIFIED');
    const asGuardian = await t.http.get('/guardian/me/links', { token: guardian.accessToken });
    expect(asGuardian.body.items.find((l: { id: string }) => l.id === linkId)).toMatchObject({
      status: 'pending',
      primary: false,
    });

    // The real owner of the address: sign-up answers 409 (the address has an account, the contract)...
    const signup = await t.http.post('/auth/signup', learnerSignup(bornYearsAgo(14), { email }));
    expect(signup.status).toBe(409);
    // ... so they set a password through the mailbox: that proves the address and ends the squatter's sessions.
    expect((await t.http.post('/auth/forgot-password', { email })).status).toBe(202);
    const reset = await smtp.waitFor(email, /reset|đặt lại/i);
    expect(
      (await t.http.post('/auth/reset-password', { token: tokenFrom(reset), password: 'the real owner passphrase' }))
        .status,
    ).toBe(204);
    expect((await t.http.get('/auth/me', { token: squatter.accessToken })).status).toBe(401);
    const owner = await t.http.post('/auth/login', { email, password: 'the real owner passphrase' });
    expect(owner.body.user.emailVerified).toBe(true);
    const approved = await t.http.post(`/guardian/links/${linkId}/approve`, undefined, {
      token: owner.body.accessToken,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'active',
      primary: true,
      guardian: { id: guardian.id, email: guardian.email },
    });
  });

  it('a child under 13 who named the guardian is linked at once only once the address is verified', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const email = uniqueEmail('young');
    const child = await signUp(t, learnerSignup(bornYearsAgo(10), { email, guardianEmail: guardian.email }));
    const declared = await t.http.post('/guardian/declare', { learnerEmail: email }, { token: guardian.accessToken });
    expect(declared.body).toMatchObject({ status: 'pending', primary: false });
    expect((await t.http.get('/auth/me', { token: child.accessToken })).body.user.status).toBe('pending_guardian');
  });
});
