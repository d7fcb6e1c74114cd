import { execFile } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startTestApp, TEST_SETTINGS, type TestApp } from '../support/app';
import { makeDataDir } from '../support/data-dir';

const run = promisify(execFile);
const dataDir = makeDataDir('lp-seed-demo-');
let databaseUrl: string;
let t: TestApp | undefined;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const seed = () =>
  run('node', ['dist/src/scripts/seed-demo.js'], {
    // The service's secret, as a deployment's commands share it: the directory of accounts' regions is keyed by it.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: TEST_SETTINGS.JWT_SECRET,
    },
  });

/** The accounts the command prints: `  <role>  <address>` lines and the one password. */
function accountsIn(stdout: string) {
  const emails = Object.fromEntries(
    [...stdout.matchAll(/^ {2}(admin|teacher|guardian|learner) +(\S+@\S+)$/gm)].map(([, role, email]) => [role, email]),
  );
  const password = /^ {2}password (\S+)$/m.exec(stdout)?.[1];
  return { emails, password };
}

describe('npm run seed:demo', () => {
  it(
    'makes a family, a class, three courses (one paid) with exercises and a product, and prints the same accounts on a second run without duplicating anything',
    { timeout: 300_000 },
    async () => {
      const first = await seed();
      const { emails, password } = accountsIn(first.stdout);
      expect(Object.keys(emails).sort()).toEqual(['admin', 'guardian', 'learner', 'teacher']);
      expect(password).toMatch(/^demo-\S{10,}$/);
      // Kept for the next run, readable by its owner only.
      expect(statSync(join(dataDir, 'demo-password')).mode & 0o777).toBe(0o600);
      const second = await seed();
      expect(accountsIn(second.stdout)).toEqual({ emails, password });

      t = await startTestApp({}, databaseUrl);
      const login = async (role: string) => {
        const answer = await t!.http.post('/auth/login', { email: emails[role], password });
        expect(answer.status, role).toBe(200);
        return answer.body.accessToken as string;
      };
      const learner = await login('learner');
      const guardian = await login('guardian');
      const teacher = await login('teacher');
      const admin = await login('admin');

      // The learner sees the three demo courses once each, the last one paid.
      const catalog = await t.http.get('/courses?limit=100&text=Demo', { token: learner });
      expect(catalog.status).toBe(200);
      const demo = catalog.body.items.filter((c: { title: { en: string } }) => c.title.en.startsWith('Demo: '));
      expect(demo.map((c: { title: { en: string }; paid: boolean }) => [c.title.en, c.paid]).sort()).toEqual([
        ['Demo: Games with Python (paid)', true],
        ['Demo: JavaScript for the web', false],
        ['Demo: Python first steps', false],
      ]);
      const paid = demo.find((c: { paid: boolean }) => c.paid);
      const free = demo.find((c: { paid: boolean }) => !c.paid);

      // A free course opens; the paid one needs buying, and its product is on sale.
      expect((await t.http.post(`/courses/${free.id}/enrollment`, undefined, { token: learner })).status).toBe(201);
      const refused = await t.http.post(`/courses/${paid.id}/enrollment`, undefined, { token: learner });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/bought/) });
      const products = await t.http.get('/products?limit=100', { token: admin });
      const selling = products.body.items.filter((p: { courseIds?: string[]; status: string }) =>
        p.courseIds?.includes(paid.id),
      );
      expect(selling).toHaveLength(1);
      expect(selling[0]).toMatchObject({
        kind: 'course',
        status: 'published',
        prices: [expect.objectContaining({ currency: 'VND', amount: 99_000 })],
      });

      // Each course has one CodeLab exercise; the paid course's stays closed to the learner until bought.
      for (const course of demo) {
        const exercises = await t.http.get(`/codelab/exercises?courseId=${course.id}`, {
          token: course.paid ? admin : learner,
        });
        expect(exercises.body.items, course.title.en).toHaveLength(1);
      }
      expect((await t.http.get(`/codelab/exercises?courseId=${paid.id}`, { token: learner })).status).toBe(403);

      // The family: one active link, and the guardian's consent lets the learner learn and share progress.
      const links = await t.http.get('/guardian/me/links', { token: guardian });
      expect(links.body.items).toHaveLength(1);
      expect(links.body.items[0]).toMatchObject({ status: 'active' });
      const consents = await t.http.get('/consent/me', { token: learner });
      const granted = consents.body.items
        .filter((c: { granted: boolean }) => c.granted)
        .map((c: { consentTypeId: string }) => c.consentTypeId);
      expect(granted).toEqual(expect.arrayContaining(['basic_data', 'progress_sharing']));

      // The class: the teacher's one class, the learner in it once, the two free courses assigned.
      const staff = await t.http.get('/school/me', { token: teacher });
      expect(staff.body.schools).toEqual([expect.objectContaining({ role: 'teacher', email: emails.teacher })]);
      const mine = await t.http.get('/school/me', { token: learner });
      expect(mine.body.classes).toHaveLength(1);
      expect(mine.body.classes[0].courses.map((c: { courseId: string }) => c.courseId).sort()).toEqual(
        demo
          .filter((c: { paid: boolean }) => !c.paid)
          .map((c: { id: string }) => c.id)
          .sort(),
      );
    },
  );
});
