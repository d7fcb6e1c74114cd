import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { adultSignup, learnerOfAge, type SignedIn, signInAdmin, signUp, uniqueEmail } from '../support/users';

let t: TestApp;
let second: TestApp;
let admin: SignedIn;
let guardian: SignedIn;
let learner: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  second = await startTestApp({}, t.databaseUrl);
  admin = await signInAdmin(t);
  guardian = await signUp(t, adultSignup({ country: 'DE' }));
  learner = await learnerOfAge(t, 15, { country: 'VN' });
});
afterAll(async () => {
  await t?.close();
  await second?.close();
});

const put = (key: string, body: Record<string, unknown>, app: TestApp = t) =>
  app.http.put(`/admin/features/${key}`, body, { token: admin.accessToken });

describe('GET /features and { features }', () => {
  it("gives each flag's value for the caller, and the defaults to anonymous callers", async () => {
    expect(
      (await put('for_learners', { enabled: true, description: 'Learners only', rules: [{ roles: ['learner'] }] }))
        .status,
    ).toBe(200);
    expect(
      (await put('teens_vn', { enabled: true, rules: [{ countries: ['vn'], minAge: 13, maxAge: 17 }] })).status,
    ).toBe(200);
    expect((await put('everybody', { enabled: true })).status).toBe(200);
    expect((await put('nobody', { enabled: false })).status).toBe(200);

    const asLearner = await t.http.get('/features', { token: learner.accessToken });
    expect(asLearner.status).toBe(200);
    expect(asLearner.body.features).toMatchObject({
      for_learners: true,
      teens_vn: true,
      everybody: true,
      nobody: false,
    });
    const asGuardian = await t.http.gql('{ features }', {}, guardian.accessToken);
    expect(asGuardian.body.data.features).toMatchObject({
      for_learners: false,
      teens_vn: false,
      everybody: true,
      nobody: false,
    });
    const anonymous = await t.http.get('/features');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.features).toMatchObject({
      for_learners: false,
      teens_vn: false,
      everybody: true,
      nobody: false,
    });
  });

  it('agrees, flag by flag and caller by caller, with the one-flag check that guards operations (OpenFeature)', async () => {
    const flags: [string, Record<string, unknown>][] = [
      ['half_of_learners', { enabled: true, rules: [{ roles: ['learner'], percentage: 50 }] }],
      ['pro_or_germany', { enabled: true, rules: [{ tiers: ['pro'] }, { countries: ['DE'] }] }],
      ['adults', { enabled: true, rules: [{ minAge: 18 }] }],
      ['switched_off', { enabled: false, rules: [{}] }],
    ];
    for (const [key, body] of flags) expect((await put(key, body)).status).toBe(200);
    for (const caller of [learner, guardian, admin, undefined]) {
      // The check runs where the caller's requests run: their home region, global's for anonymous callers.
      const { services } = caller ? (await homeOf(t, caller.id)).unit() : t.app.deps.unit();
      const listed = (await t.http.get('/features', { token: caller?.accessToken })).body.features as Record<
        string,
        boolean
      >;
      const viewer = caller ? await services.auth.findUser(caller.id) : null;
      for (const [key] of flags)
        expect(listed[key], `${key} for ${caller?.id ?? 'anonymous'}`).toBe(
          await services.features.isEnabled(key, viewer),
        );
      expect(Object.keys(listed)).toEqual(expect.arrayContaining(flags.map(([key]) => key)));
    }
  });

  it('sees a change made on another instance within a second', async () => {
    expect((await put('live_switch', { enabled: false })).status).toBe(200);
    // The second instance reads (and caches) the flag off.
    expect((await second.http.get('/features', { token: guardian.accessToken })).body.features.live_switch).toBe(false);
    const changedAt = Date.now();
    expect((await put('live_switch', { enabled: true })).status).toBe(200);
    let seenAfter = -1;
    while (Date.now() - changedAt < 3000) {
      if ((await second.http.get('/features', { token: guardian.accessToken })).body.features.live_switch === true) {
        seenAfter = Date.now() - changedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seenAfter).toBeGreaterThanOrEqual(0);
    expect(seenAfter).toBeLessThan(1000);
  });
});

describe('admins: GET /admin/features, PUT /admin/features/:key', () => {
  it('lists flags with their rules, replaces them, and audits each change', async () => {
    const body = {
      enabled: true,
      description: 'Half of Vietnamese creators',
      rules: [{ roles: ['creator'], tiers: ['pro'], countries: ['VN'], minAge: 18, maxAge: 99, percentage: 50 }],
    };
    const saved = await put('half_creators', body);
    expect(saved.body).toMatchObject({
      key: 'half_creators',
      enabled: true,
      description: body.description,
      rules: body.rules,
      updatedBy: admin.id,
    });
    const replaced = await t.http.gql(
      'mutation { setFeatureFlag(key: "half_creators", input: { enabled: false }) { key enabled rules { roles } description } }',
      {},
      admin.accessToken,
    );
    expect(replaced.body.data.setFeatureFlag).toEqual({
      key: 'half_creators',
      enabled: false,
      rules: [],
      description: body.description,
    });
    const listed = await t.http.get('/admin/features', { token: admin.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.items.find((f: { key: string }) => f.key === 'half_creators')).toMatchObject({
      enabled: false,
      rules: [],
    });
    const audit = await t.http.get('/admin/audit?targetId=half_creators', { token: admin.accessToken });
    expect(audit.body.items.map((e: { action: string }) => e.action)).toEqual([
      'features.flag_changed',
      'features.flag_changed',
    ]);
    expect(audit.body.items[0].data.before.enabled).toBe(true);
    expect(audit.body.items[0].data.after.enabled).toBe(false);
  });

  it('refuses bad keys and rules with 400 and details', async () => {
    for (const [key, body] of [
      ['Bad Key', { enabled: true }],
      ['ok', {}],
      ['ok', { enabled: true, rules: [{ percentage: 101 }] }],
      ['ok', { enabled: true, rules: [{ roles: ['wizard'] }] }],
      ['ok', { enabled: true, rules: [{ countries: ['XX'] }] }],
      ['ok', { enabled: true, rules: [{ minAge: 18, maxAge: 10 }] }],
      ['ok', { enabled: true, rules: Array.from({ length: 21 }, () => ({})) }],
    ] as const) {
      const reply = await put(encodeURIComponent(key), body);
      expect(reply.status, JSON.stringify([key, body])).toBe(400);
      expect(reply.body.error).toBe('validation_failed');
      expect(reply.body.details.length).toBeGreaterThan(0);
    }
  });

  it('is refused without a token (401) and to non-admins (403)', async () => {
    expect((await t.http.get('/admin/features')).status).toBe(401);
    expect((await t.http.put('/admin/features/x', { enabled: true })).status).toBe(401);
    const refused = await t.http.get('/admin/features', { token: guardian.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    expect((await t.http.put('/admin/features/x', { enabled: true }, { token: learner.accessToken })).status).toBe(403);
    const gql = await t.http.gql('{ featureFlags { key } }', {}, guardian.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('the featureEnabled rule', () => {
  it('answers 403 feature_disabled while a flag is off for the caller (the contact form, on by default)', async () => {
    const message = () => ({ name: 'A', email: uniqueEmail(), subject: 'Hi', message: 'Hello' });
    expect((await t.http.post('/contact', message())).status).toBe(202);
    await put('contact_form', { enabled: false });
    const refused = await t.http.post('/contact', message());
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('feature_disabled');
    const gql = await t.http.gql('mutation($input: ContactInput!) { sendContactMessage(input: $input) { id } }', {
      input: message(),
    });
    expect(gql.body.errors?.[0].extensions.code).toBe('FEATURE_DISABLED');
    await put('contact_form', { enabled: true });
    expect((await t.http.post('/contact', message())).status).toBe(202);
  });
});
