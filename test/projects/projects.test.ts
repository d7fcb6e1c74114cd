import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { learnerOfAge, type SignedIn } from '../support/users';

vi.setConfig({ testTimeout: 180_000 });

// Projects run on CodeLab's runners: warm, as in CodeLab's own tests.
let t: TestApp;
let learner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await startTestApp({ CODELAB_PREWARM: 'true', CODELAB_WORKERS: '2', CODELAB_RUNS_PER_MINUTE: '1000' });
  learner = await learnerOfAge(t, 20);
  stranger = await learnerOfAge(t, 20);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('projects', () => {
  const files = [
    { path: 'main.py', content: 'from_input = input()\nprint("hi", from_input)\n' },
    { path: 'README.md', content: '# My project' },
  ];
  const body = (overrides: Record<string, unknown> = {}) => ({
    title: 'Greeter',
    description: 'Says hi',
    language: 'python',
    files,
    ...overrides,
  });

  it('are created (201) private, listed, run, remixed and deleted by their owner', async () => {
    const created = await t.http.post('/projects', body(), { token: learner.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ownerId: learner.id, visibility: 'private', remixOf: null, files });
    const mine = await t.http.get('/projects/me', { token: learner.accessToken });
    expect(mine.body.items.map((p: { id: string }) => p.id)).toContain(created.body.id);
    const run = await t.http.post(
      `/projects/${created.body.id}/run`,
      { stdin: 'Lan\n' },
      { token: learner.accessToken },
    );
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'ok', stdout: 'hi Lan\n' });
    const remix = await t.http.post(`/projects/${created.body.id}/remix`, undefined, { token: learner.accessToken });
    expect(remix.status).toBe(201);
    expect(remix.body).toMatchObject({ remixOf: created.body.id, visibility: 'private', ownerId: learner.id });
    const updated = await t.http.put(
      `/projects/${created.body.id}`,
      body({ title: 'Greeter 2', visibility: 'unlisted' }),
      { token: learner.accessToken },
    );
    expect(updated.body).toMatchObject({ title: 'Greeter 2', visibility: 'unlisted' });
    expect((await t.http.delete(`/projects/${remix.body.id}`, { token: learner.accessToken })).status).toBe(204);
    expect((await t.http.get(`/projects/${remix.body.id}`, { token: learner.accessToken })).status).toBe(404);
  });

  it('private: the owner only (a stranger and anonymous get 404); unlisted and public: anyone reads, only the owner changes', async () => {
    const created = await t.http.post('/projects', body(), { token: learner.accessToken });
    const id = created.body.id;
    expect((await t.http.get(`/projects/${id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await t.http.get(`/projects/${id}`)).status).toBe(404);
    const gql = await t.http.gql('query($id: ID!) { project(id: $id) { id } }', { id }, stranger.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect(
      (await t.http.put(`/projects/${id}`, body({ title: 'Mine now' }), { token: stranger.accessToken })).status,
    ).toBe(404);
    expect((await t.http.delete(`/projects/${id}`, { token: stranger.accessToken })).status).toBe(404);

    await t.http.put(`/projects/${id}`, body({ visibility: 'unlisted' }), { token: learner.accessToken });
    expect((await t.http.get(`/projects/${id}`)).status).toBe(200);
    expect((await t.http.get(`/projects/${id}`, { token: stranger.accessToken })).status).toBe(200);
    expect(
      (await t.http.put(`/projects/${id}`, body({ title: 'Mine now' }), { token: stranger.accessToken })).status,
    ).toBe(403);
    const remix = await t.http.post(`/projects/${id}/remix`, undefined, { token: stranger.accessToken });
    expect(remix.body).toMatchObject({ ownerId: stranger.id, remixOf: id, visibility: 'private' });
  });

  it('hold at most 50 files and 256 KiB', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ path: `f${i}.py`, content: '' }));
    const tooMany = await t.http.post('/projects', body({ files: many }), { token: learner.accessToken });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0].field).toBe('files');
    const big = await t.http.post(
      '/projects',
      body({ files: [{ path: 'main.py', content: 'x'.repeat(256 * 1024) }] }),
      { token: learner.accessToken },
    );
    expect(big.status).toBe(400);
    const badPath = await t.http.post('/projects', body({ files: [{ path: '../etc/passwd', content: '' }] }), {
      token: learner.accessToken,
    });
    expect(badPath.status).toBe(400);
    const gql = await t.http.gql(
      'mutation($input: ProjectInput!) { createProject(input: $input) { id } }',
      { input: body({ files: many }) },
      learner.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});
