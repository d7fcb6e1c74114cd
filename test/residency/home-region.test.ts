import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import { ownerOf, ownerOfAccount } from '../support/regions';
import { asOwner } from '../support/sql';
import {
  adultSignup,
  bornYearsAgo,
  learnerOfAge,
  type SignedIn,
  signInAdmin,
  signupInput,
  signUp,
  uniqueEmail,
  verifiedGuardian,
  verifiedLearnerOfAge,
} from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
beforeAll(() => void ({ t, smtp } = ctx));

const regionStored = async (id: string) =>
  (
    (await asOwner(await ownerOfAccount(t, id), 'select region from users where id = $1', [id])) as { region: string }[]
  )[0]?.region;

describe("an account's home region follows its country at sign-up", () => {
  it('is vn for Viet Nam and global for Germany, on REST and GraphQL alike', async () => {
    const vn = await signUp(t, adultSignup({ country: 'vn' }));
    expect(vn.user).toMatchObject({ country: 'VN', region: 'vn' });
    expect(await regionStored(vn.id)).toBe('vn');
    const de = await signUp(t, adultSignup({ country: 'DE' }));
    expect((await t.http.get('/auth/me', { token: de.accessToken })).body.user).toMatchObject({
      country: 'DE',
      region: 'global',
    });
    const signedUp = await t.http.gql(
      'mutation ($input: SignupInput!) { signup(input: $input) { user { country region } } }',
      { input: signupInput(adultSignup({ country: 'VN' })) },
    );
    expect(signedUp.body).toEqual({ data: { signup: { user: { country: 'VN', region: 'vn' } } } });
  });
});

describe('a family lives in one region', () => {
  const conflict = {
    error: 'conflict',
    reason: 'region_mismatch',
    message: expect.stringContaining("make the guardian's account in the learner's country"),
  };

  it("refuses a German guardian's link to a Vietnamese learner when the learner approves it, and stores no link", async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'DE' });
    const learner = await verifiedLearnerOfAge(t, smtp, 14, { country: 'VN' });
    const declared = await t.http.post(
      '/guardian/declare',
      { learnerEmail: learner.email },
      { token: guardian.accessToken },
    );
    expect(declared.status).toBe(201);
    const approved = await t.http.post(`/guardian/links/${declared.body.id}/approve`, undefined, {
      token: learner.accessToken,
    });
    expect(approved.status).toBe(409);
    expect(approved.body).toEqual(conflict);
    const [link] = (await asOwner(t, 'select status from guardian_links where id = $1', [declared.body.id])) as {
      status: string;
    }[];
    expect(link.status).toBe('pending');

    const asGraphQL = await t.http.gql(
      'mutation ($id: ID!) { approveGuardianLink(id: $id) { id } }',
      { id: declared.body.id },
      learner.accessToken,
    );
    expect(asGraphQL.body.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'region_mismatch' });
  });

  it("refuses a child of another region's country added by a guardian, and makes no account", async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'DE', email: uniqueEmail('parent') });
    const displayName = `Child ${uniqueEmail()}`;
    const added = await t.http.post(
      '/guardian/learners',
      { displayName, birthDate: bornYearsAgo(9), country: 'VN' },
      { token: guardian.accessToken },
    );
    expect(added.status).toBe(409);
    expect(added.body).toEqual(conflict);
    for (const region of ['global', 'vn'])
      expect(await asOwner(ownerOf(t, region), 'select 1 from users where display_name = $1', [displayName])).toEqual(
        [],
      );
  });

  it('links a Vietnamese guardian and child', async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'VN' });
    const added = await t.http.post(
      '/guardian/learners',
      { displayName: 'Bao', birthDate: bornYearsAgo(9) },
      { token: guardian.accessToken },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ status: 'active' });
    expect(await regionStored(added.body.learner.id)).toBe('vn');
  });
});

describe("a school is in its country's region, and so are its members", () => {
  let admin: SignedIn;
  let germanSchool: string;
  beforeAll(async () => {
    admin = await signInAdmin(t);
    germanSchool = (
      await t.http.post('/school', { name: `Schule ${uniqueEmail()}`, country: 'DE' }, { token: admin.accessToken })
    ).body.id;
  });

  it('refuses a Vietnamese account as staff of a German school, and a Vietnamese learner in its class, but takes a German one', async () => {
    const vnTeacher = await signUp(t, adultSignup({ country: 'VN' }));
    const refused = await t.http.post(
      `/school/${germanSchool}/members`,
      { email: vnTeacher.email, role: 'teacher' },
      { token: admin.accessToken },
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict', reason: 'school_region_mismatch' });
    expect(await asOwner(t, 'select 1 from school_members where user_id = $1', [vnTeacher.id])).toEqual([]);

    const teacher = await signUp(t, adultSignup({ country: 'DE' }));
    const added = await t.http.post(
      `/school/${germanSchool}/members`,
      { email: teacher.email, role: 'teacher' },
      { token: admin.accessToken },
    );
    expect(added.status).toBe(201);
    const created = await t.http.post(
      `/school/${germanSchool}/classes`,
      { name: '7A' },
      { token: teacher.accessToken },
    );
    const vnLearner = await learnerOfAge(t, 19, { country: 'VN' });
    const joined = await t.http.post('/school/join', { code: created.body.joinCode }, { token: vnLearner.accessToken });
    expect(joined.status).toBe(409);
    expect(joined.body).toMatchObject({ error: 'conflict', reason: 'school_region_mismatch' });
    const deLearner = await learnerOfAge(t, 19, { country: 'DE' });
    expect(
      (await t.http.post('/school/join', { code: created.body.joinCode }, { token: deLearner.accessToken })).status,
    ).toBe(201);
  });
});
