import { beforeAll, describe, expect, it } from 'vitest';
import { ConsentType } from '../../src/consent/consent.entity';
import type { TestApp } from '../support/app';
import { linkedFamily } from '../support/family';
import { withMailAndApp } from '../support/setup';
import { homeOf } from '../support/regions';
import { settled } from '../support/sql';
import type { SmtpServer } from '../support/smtp';
import { adultSignup, learnerOfAge, type SignedIn, signUp, verifiedGuardian } from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const CONSENT =
  'consentTypeId granted needsGuardian needsOwnConsent canGrantAlone guardianGrantedBy { id displayName }';
const consentOf = async (who: SignedIn, type: string) =>
  (await t.http.get('/consent/me', { token: who.accessToken })).body.items.find(
    (c: { consentTypeId: string }) => c.consentTypeId === type,
  );

/** What a feature behind a consent asks (the AI proxy, for one): the service's check. */
async function check(userId: string, type: ConsentType): Promise<string> {
  const { services } = (await homeOf(t, userId)).unit();
  return services.consent.assertConsent(userId, type).then(
    () => 'ok',
    (error) => error.code,
  );
}

const family = (age: number, country: string) => linkedFamily(t, smtp, age, country);

describe('GET /consent/me and { consents }', () => {
  it('lists every type with its state and who must give it', async () => {
    const adult = await signUp(t, adultSignup());
    const reply = await t.http.get('/consent/me', { token: adult.accessToken });
    expect(reply.status).toBe(200);
    expect(reply.body.items.map((c: { consentTypeId: string }) => c.consentTypeId).sort()).toEqual([
      'ai_conversation',
      'ai_memory',
      'basic_data',
      'marketing_email',
      'progress_sharing',
    ]);
    expect(
      reply.body.items.every(
        (c: Record<string, unknown>) => c.granted === false && c.canGrantAlone === true && c.needsGuardian === false,
      ),
    ).toBe(true);
    const gql = await t.http.gql(`{ consents { ${CONSENT} } }`, {}, adult.accessToken);
    expect(gql.body.data.consents).toHaveLength(5);
    expect((await t.http.get('/consent/me')).status).toBe(401);
  });
});

describe('granting and revoking', () => {
  it('lets an adult grant and revoke alone, each change in the ledger', async () => {
    const adult = await signUp(t, adultSignup());
    const granted = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'marketing_email' },
      { token: adult.accessToken },
    );
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      consentTypeId: 'marketing_email',
      granted: true,
      ownGrantedAt: expect.any(String),
      policyVersion: 1,
    });
    expect(await check(adult.id, ConsentType.marketing_email)).toBe('ok');
    const revoked = await t.http.gql(
      `mutation { revokeConsent(input: { consentTypeId: MARKETING_EMAIL }) { ${CONSENT} } }`,
      {},
      adult.accessToken,
    );
    expect(revoked.body.data.revokeConsent.granted).toBe(false);
    expect(await check(adult.id, ConsentType.marketing_email)).toBe('consent_required');
    const ledger = await t.http.get('/consent/ledger', { token: adult.accessToken });
    expect(
      ledger.body.items.map((e: { action: string; actorRole: string; actorId: string }) => [
        e.action,
        e.actorRole,
        e.actorId,
      ]),
    ).toEqual([
      ['revoked', 'self', adult.id],
      ['granted', 'self', adult.id],
    ]);
  });

  it("refuses a learner a consent that needs a guardian, asks the guardian, and takes the guardian's", async () => {
    const { guardian, learner } = await family(15, 'US');
    const asked = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_conversation' },
      { token: learner.accessToken },
    );
    expect(asked.status).toBe(403);
    expect(asked.body.error).toBe('guardian_consent_required');
    await expect
      .poll(async () => (await t.http.get('/notifications', { token: guardian.accessToken })).body.items[0]?.data)
      .toEqual({ learnerId: learner.id, consentTypeId: 'ai_conversation' });
    // Delivered through the outbox: once nothing is left to deliver, still exactly one.
    await settled(t);
    const asks = (await t.http.get('/notifications', { token: guardian.accessToken })).body.items.filter(
      (n: { type: string }) => n.type === 'consent',
    );
    expect(asks).toEqual([
      expect.objectContaining({
        title: expect.stringContaining('asks for your consent'),
        data: { learnerId: learner.id, consentTypeId: 'ai_conversation' },
      }),
    ]);
    expect(await check(learner.id, ConsentType.ai_conversation)).toBe('guardian_consent_required');

    const given = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_conversation', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({
      granted: true,
      needsGuardian: true,
      canGrantAlone: false,
      guardianGrantedBy: { id: guardian.id },
    });
    expect(await check(learner.id, ConsentType.ai_conversation)).toBe('ok');
    expect((await consentOf(learner, 'ai_conversation')).granted).toBe(true);

    const viewed = await t.http.get(`/guardian/learners/${learner.id}/consents`, { token: guardian.accessToken });
    expect(
      viewed.body.items.find((c: { consentTypeId: string }) => c.consentTypeId === 'ai_conversation').granted,
    ).toBe(true);
    const ledger = await t.http.get(`/consent/ledger?learnerId=${learner.id}`, { token: guardian.accessToken });
    expect(ledger.body.items[0]).toMatchObject({
      subjectId: learner.id,
      action: 'granted',
      actorRole: 'guardian',
      actorId: guardian.id,
      country: 'US',
    });
  });

  it('disables the feature at once when ai_memory is revoked', async () => {
    const { guardian, learner } = await family(14, 'DE');
    await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_memory', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(await check(learner.id, ConsentType.ai_memory)).toBe('ok');
    const revoked = await t.http.post(
      '/consent/revoke',
      { consentTypeId: 'ai_memory', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.granted).toBe(false);
    expect(await check(learner.id, ConsentType.ai_memory)).toBe('guardian_consent_required');
  });

  it("needs the child's own consent beside the guardian's in Viet Nam from 7", async () => {
    const { guardian, learner } = await family(10, 'VN');
    const byGuardian = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'basic_data', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(byGuardian.body).toMatchObject({ granted: false, needsGuardian: true, needsOwnConsent: true });
    expect(await check(learner.id, ConsentType.basic_data)).toBe('consent_required');
    const byChild = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'basic_data' },
      { token: learner.accessToken },
    );
    expect(byChild.status).toBe(200);
    expect(byChild.body.granted).toBe(true);
    expect(await check(learner.id, ConsentType.basic_data)).toBe('ok');
  });

  it('keeps guardians out of what a learner decides alone, and out of other families (404)', async () => {
    const { guardian, learner } = await family(17, 'US');
    const basic = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'basic_data', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(basic.status).toBe(403);
    expect(basic.body.error).toBe('forbidden');
    const stranger = await verifiedGuardian(t, smtp);
    for (const path of ['/consent/grant', '/consent/revoke']) {
      const reply = await t.http.post(
        path,
        { consentTypeId: 'ai_memory', learnerId: learner.id },
        { token: stranger.accessToken },
      );
      expect(reply.status).toBe(404);
    }
    expect(
      (await t.http.get(`/guardian/learners/${learner.id}/consents`, { token: stranger.accessToken })).status,
    ).toBe(404);
    expect((await t.http.get(`/consent/ledger?learnerId=${learner.id}`, { token: stranger.accessToken })).status).toBe(
      404,
    );
  });

  it('refuses bad bodies with 400 and details', async () => {
    const adult = await signUp(t, adultSignup());
    for (const [body, field] of [
      [{}, 'consentTypeId'],
      [{ consentTypeId: 'telepathy' }, 'consentTypeId'],
      [{ consentTypeId: 'ai_memory', learnerId: 'not-an-id' }, 'learnerId'],
    ] as const) {
      const reply = await t.http.post('/consent/grant', body, { token: adult.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].field).toContain(field);
    }
  });

  it('keeps the ledger append-only in the database', async () => {
    const adult = await signUp(t, adultSignup());
    await t.http.post('/consent/grant', { consentTypeId: 'marketing_email' }, { token: adult.accessToken });
    const connection = (await homeOf(t, adult.id)).orm.em.getConnection();
    await expect(
      connection.execute('update consent_ledger set action = ? where subject_id = ?', ['revoked', adult.id]),
    ).rejects.toThrow(/append-only/);
    await expect(connection.execute('delete from consent_ledger where subject_id = ?', [adult.id])).rejects.toThrow(
      /append-only/,
    );
  });
});

describe('who must consent, by age and country', () => {
  // [country, age, consent type, needsGuardian, needsOwn]
  const matrix: [string, number, string, boolean, boolean][] = [
    ['DE', 15, 'basic_data', true, false],
    ['DE', 16, 'basic_data', false, true],
    ['US', 12, 'basic_data', true, false],
    ['US', 13, 'basic_data', false, true],
    ['VN', 6, 'basic_data', true, false],
    ['VN', 7, 'basic_data', true, true],
    ['VN', 15, 'basic_data', true, true],
    ['VN', 16, 'basic_data', false, true],
    ['US', 17, 'ai_conversation', true, false],
    ['US', 18, 'ai_conversation', false, true],
    ['DE', 17, 'ai_memory', true, false],
    ['DE', 18, 'progress_sharing', false, true],
    ['BR', 15, 'basic_data', true, false],
    ['US', 12, 'marketing_email', false, true],
  ];

  it.each(matrix)('%s, age %i, %s: guardian %s, own %s', async (country, age, type, needsGuardian, needsOwn) => {
    const learner = await learnerOfAge(t, age, { country });
    const consent = await consentOf(learner, type);
    expect(consent).toMatchObject({ needsGuardian, needsOwnConsent: needsOwn, canGrantAlone: !needsGuardian });
  });
});
