import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import { adultSignup, learnerOfAge, type SignedIn, signUp, verifiedGuardian } from '../support/users';

vi.setConfig({ testTimeout: 180_000 });

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let learner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  ({ t, smtp } = ctx);
  learner = await learnerOfAge(t, 20);
  stranger = await learnerOfAge(t, 20);
}, 120_000);

describe('portfolio and the under-18 rule', () => {
  it('an adult sets a public portfolio; the public page shows no e-mail, birth date or country', async () => {
    const adult = await signUp(t, adultSignup({ role: 'creator' }));
    const project = await t.http.post(
      '/projects',
      {
        title: 'Public work',
        language: 'javascript',
        files: [{ path: 'main.js', content: 'console.log(1)' }],
        visibility: 'public',
      },
      { token: adult.accessToken },
    );
    const hiddenProject = await t.http.post(
      '/projects',
      { title: 'Private work', language: 'javascript', files: [{ path: 'main.js', content: '' }] },
      { token: adult.accessToken },
    );
    const handle = `lan-${adult.id.slice(0, 6)}`;
    const put = await t.http.put(
      '/portfolio/me',
      {
        handle,
        headline: 'Young coder',
        bio: 'I like loops',
        projectIds: [project.body.id, hiddenProject.body.id],
        visibility: 'public',
      },
      { token: adult.accessToken },
    );
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ handle, visibility: 'public' });
    const page = await t.http.get(`/portfolio/${handle}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ handle, displayName: 'Lan Nguyen', headline: 'Young coder' });
    expect(page.body.projects.map((p: { id: string }) => p.id)).toEqual([project.body.id]);
    expect(JSON.stringify(page.body)).not.toMatch(/@example\.com|birthDate|country/);
    const gql = await t.http.gql('query($h: String!) { portfolio(handle: $h) { handle displayName } }', { h: handle });
    expect(gql.body.data.portfolio).toEqual({ handle, displayName: 'Lan Nguyen' });

    // Handles are unique, well formed, and another person's projects cannot be shown.
    const taken = await t.http.put('/portfolio/me', { handle }, { token: learner.accessToken });
    expect(taken.status).toBe(409);
    const bad = await t.http.put('/portfolio/me', { handle: 'No Spaces!' }, { token: learner.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('handle');
    const notMine = await t.http.put(
      '/portfolio/me',
      { handle: `x-${learner.id.slice(0, 6)}`, projectIds: [project.body.id] },
      { token: learner.accessToken },
    );
    expect(notMine.status).toBe(400);
    expect((await t.http.get('/portfolio/me', { token: learner.accessToken })).body).toMatchObject({
      handle: null,
      visibility: 'private',
    });
    expect((await t.http.get('/portfolio/nobody-here')).status).toBe(404);
  });

  it("a learner under 18 goes public only while a guardian's progress_sharing consent stands, and is private again when it is revoked", async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const teen = await withBasicData(t, await learnerOfAge(t, 15));
    await linkFamily(t, guardian, teen);
    const project = await t.http.post(
      '/projects',
      { title: 'Game', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }] },
      { token: teen.accessToken },
    );
    // The guardian sees the private project; a stranger does not.
    expect((await t.http.get(`/projects/${project.body.id}`, { token: guardian.accessToken })).status).toBe(200);

    const refused = await t.http.put(
      `/projects/${project.body.id}`,
      { title: 'Game', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }], visibility: 'public' },
      { token: teen.accessToken },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('guardian_consent_required');
    const handle = `teen-${teen.id.slice(0, 6)}`;
    expect(
      (await t.http.put('/portfolio/me', { handle, visibility: 'public' }, { token: teen.accessToken })).status,
    ).toBe(403);

    const grant = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'progress_sharing', learnerId: teen.id },
      { token: guardian.accessToken },
    );
    expect(grant.status).toBe(200);
    // In Viet Nam a learner from 7 gives their own consent too.
    await t.http.post('/consent/grant', { consentTypeId: 'progress_sharing' }, { token: teen.accessToken });
    const made = await t.http.put(
      `/projects/${project.body.id}`,
      { title: 'Game', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }], visibility: 'public' },
      { token: teen.accessToken },
    );
    expect(made.body.visibility).toBe('public');
    expect(
      (
        await t.http.put(
          '/portfolio/me',
          { handle, projectIds: [project.body.id], visibility: 'public' },
          { token: teen.accessToken },
        )
      ).status,
    ).toBe(200);
    expect((await t.http.get(`/portfolio/${handle}`)).body.projects).toHaveLength(1);
    expect((await t.http.get(`/projects/${project.body.id}`, { token: stranger.accessToken })).status).toBe(200);

    const revoke = await t.http.post(
      '/consent/revoke',
      { consentTypeId: 'progress_sharing', learnerId: teen.id },
      { token: guardian.accessToken },
    );
    expect(revoke.status).toBe(200);
    // At once by the read-time check, and stored as private by the reaction to the revocation.
    expect((await t.http.get(`/portfolio/${handle}`)).status).toBe(404);
    expect((await t.http.get(`/projects/${project.body.id}`, { token: stranger.accessToken })).status).toBe(404);
    let stored = await t.http.get(`/projects/${project.body.id}`, { token: teen.accessToken });
    for (let i = 0; i < 50 && stored.body.visibility !== 'private'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await t.http.get(`/projects/${project.body.id}`, { token: teen.accessToken });
    }
    expect(stored.body.visibility).toBe('private');
    expect((await t.http.get('/portfolio/me', { token: teen.accessToken })).body.visibility).toBe('private');
  });
});
