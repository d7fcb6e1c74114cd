import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { type SmtpServer, tokenFrom } from '../support/smtp';
import { bornYearsAgo, learnerOfAge, learnerSignup, signUp, uniqueEmail, verifiedGuardian } from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const LINK = 'id status learner { id displayName email } learnerEmail guardian { id }';
/** A link as seen by its guardian, without what differs between any two links (ids, times, the address). */
const shape = (link: Record<string, unknown>) => ({ ...link, id: undefined, learnerEmail: undefined, createdAt: undefined, history: (link.history as { status: string }[]).map((h) => h.status) });

describe('declaring a learner (issue 16, items 6 and 7)', () => {
  it('answers and lists a pending link the same whether or not the address has an account', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const existing = await learnerOfAge(t, 14);
    const withAccount = await t.http.post('/guardian/declare', { learnerEmail: existing.email }, { token: guardian.accessToken });
    const without = await t.http.post('/guardian/declare', { learnerEmail: uniqueEmail('nobody') }, { token: guardian.accessToken });
    expect([withAccount.status, without.status]).toEqual([201, 201]);
    expect(withAccount.body.learner).toBeNull();
    expect(shape(withAccount.body)).toEqual(shape(without.body));

    const listed = await t.http.get('/guardian/me/links', { token: guardian.accessToken });
    const [a, b] = [withAccount.body.id, without.body.id].map((id) => listed.body.items.find((l: { id: string }) => l.id === id));
    expect(shape(a)).toEqual(shape(b));
    const gql = await t.http.gql(
      `mutation($input: DeclareLearnerInput!) { declareLearner(input: $input) { ${LINK} } }`,
      { input: { learnerEmail: (await learnerOfAge(t, 15)).email } },
      guardian.accessToken,
    );
    expect(gql.body.data.declareLearner.learner).toBeNull();

    // Once active, the learner appears.
    const approved = await t.http.post(`/guardian/links/${withAccount.body.id}/approve`, undefined, { token: existing.accessToken });
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
    const approve = await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, { token: squatter.accessToken });
    expect(approve.status).toBe(404);
    const gql = await t.http.gql('mutation($id: ID!) { approveGuardianLink(id: $id) { id } }', { id: declared.body.id }, squatter.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.http.post(`/guardian/links/${declared.body.id}/revoke`, undefined, { token: squatter.accessToken })).status).toBe(404);

    // Whoever holds the mailbox proves it: by verifying the address ...
    const verification = await smtp.waitFor(email, /confirm|xác nhận/i);
    await t.http.post('/auth/verify-email', { token: tokenFrom(verification) });
    const now = await t.http.get('/guardian/me/links', { token: squatter.accessToken });
    expect(now.body.items.map((l: { id: string }) => l.id)).toContain(declared.body.id);
    expect((await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, { token: squatter.accessToken })).status).toBe(200);
  });

  it('... or by the token mailed with the request', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const email = uniqueEmail('mailbox');
    await t.http.post('/guardian/declare', { learnerEmail: email }, { token: guardian.accessToken });
    await signUp(t, learnerSignup(bornYearsAgo(14), { email }));
    const request = await smtp.waitFor(email, /guardian|giám hộ/i);
    const confirmed = await t.http.post('/guardian/links/confirm', { token: tokenFrom(request) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('active');
  });
});
