import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import type { GqlError } from '../support/http';
import { adultSignup, learnerOfAge, signInAdmin, signUp } from '../support/users';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const POLICY = 'country region guardianConsentAge childConsentAge aiGuardianConsentAge dataResidency rules version';

describe('GET /country-policy', () => {
  it.each([
    [
      'DE',
      { region: 'EU', guardianConsentAge: 16, childConsentAge: null, aiGuardianConsentAge: 18, dataResidency: null },
    ],
    ['FR', { region: 'EU', guardianConsentAge: 16 }],
    ['US', { region: 'US', guardianConsentAge: 13, childConsentAge: null }],
    ['VN', { region: 'VN', guardianConsentAge: 16, childConsentAge: 7, dataResidency: 'VN' }],
    ['BR', { region: 'OTHER', guardianConsentAge: 16, aiGuardianConsentAge: 18 }],
  ])('gives the defaults for %s, publicly', async (country, expected) => {
    const reply = await t.http.get(`/country-policy?country=${country}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ country, ...expected, version: 1, updatedAt: null });
    expect(reply.body.rules.length).toBeGreaterThan(0);
  });

  it('answers the same in GraphQL', async () => {
    const reply = await t.http.gql(`{ countryPolicy(country: "VN") { ${POLICY} } }`);
    expect(reply.body.data.countryPolicy).toMatchObject({ region: 'VN', childConsentAge: 7 });
  });

  it.each(['XX', 'vn', 'VNM', '', '12'])('refuses the country code %j with 400', async (country) => {
    const reply = await t.http.get(`/country-policy?country=${country}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('validation_failed');
    expect(reply.body.details[0].field).toBe('country');
  });

  it('refuses a missing country with 400', async () => {
    const reply = await t.http.get('/country-policy');
    expect(reply.status).toBe(400);
    expect(reply.body.details[0].field).toBe('country');
  });
});

describe('PUT /country-policy/:country', () => {
  it('lets an admin change a country, keeps every change with its author, and consent follows', async () => {
    const admin = await signInAdmin(t);
    const before = await learnerOfAge(t, 14, { country: 'JP' });
    const beforeConsent = (await t.http.get('/consent/me', { token: before.accessToken })).body.items.find(
      (c: { consentTypeId: string }) => c.consentTypeId === 'basic_data',
    );
    expect(beforeConsent.needsGuardian).toBe(true);

    const changed = await t.http.put(
      '/country-policy/JP',
      { guardianConsentAge: 14, rules: ['APPI: guardian consent under 14.'] },
      { token: admin.accessToken },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      country: 'JP',
      region: 'OTHER',
      guardianConsentAge: 14,
      rules: ['APPI: guardian consent under 14.'],
      version: 2,
      updatedAt: expect.any(String),
    });
    const again = await t.http.gql(
      'mutation { updateCountryPolicy(country: "JP", input: { childConsentAge: 10 }) { version childConsentAge guardianConsentAge } }',
      {},
      admin.accessToken,
    );
    expect(again.body.data.updateCountryPolicy).toEqual({ version: 3, childConsentAge: 10, guardianConsentAge: 14 });

    const history = await t.http.gql(
      '{ countryPolicy(country: "JP") { history { version authorId before after } } }',
      {},
      admin.accessToken,
    );
    const changes = history.body.data.countryPolicy.history;
    expect(changes.map((c: { version: number; authorId: string }) => [c.version, c.authorId])).toEqual([
      [2, admin.id],
      [1, admin.id],
    ]);
    expect(changes[1].before.guardianConsentAge).toBe(16);
    expect(changes[1].after.guardianConsentAge).toBe(14);

    const afterConsent = (await t.http.get('/consent/me', { token: before.accessToken })).body.items.find(
      (c: { consentTypeId: string }) => c.consentTypeId === 'basic_data',
    );
    expect(afterConsent.needsGuardian).toBe(false);
  });

  it('refuses bad values with 400 and details', async () => {
    const admin = await signInAdmin(t);
    for (const [path, body, field] of [
      ['/country-policy/DE', { guardianConsentAge: 99 }, 'guardianConsentAge'],
      ['/country-policy/DE', { guardianConsentAge: 'old' }, 'guardianConsentAge'],
      ['/country-policy/DE', { childConsentAge: 16 }, 'childConsentAge'],
      ['/country-policy/DE', { guardianConsentAge: null }, 'guardianConsentAge'],
      ['/country-policy/DE', { dataResidency: 'Europe' }, 'dataResidency'],
      ['/country-policy/XX', { guardianConsentAge: 15 }, 'country'],
    ] as const) {
      const reply = await t.http.put(path, body, { token: admin.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].field).toContain(field);
    }
    expect((await t.http.get('/country-policy?country=DE')).body.version).toBe(1);
  });

  it('is for admins only (401, 403), and the history too', async () => {
    expect((await t.http.put('/country-policy/DE', { guardianConsentAge: 15 })).status).toBe(401);
    const someone = await signUp(t, adultSignup());
    const refused = await t.http.put('/country-policy/DE', { guardianConsentAge: 15 }, { token: someone.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const history = await t.http.gql(
      '{ countryPolicy(country: "DE") { country history { version } } }',
      {},
      someone.accessToken,
    );
    // The policy itself is anyone's: only the refused history is null.
    expect(history.body.data).toEqual({ countryPolicy: { country: 'DE', history: null } });
    expect(history.body.errors?.map((e: GqlError) => [e.extensions.code, e.path])).toEqual([
      ['FORBIDDEN', ['countryPolicy', 'history']],
    ]);
  });
});
