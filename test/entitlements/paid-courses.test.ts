import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { fewestStatements } from '../support/sql';
import { linkedFamily } from '../support/family';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, signInAdmin } from '../support/users';
import { buy, publishedProduct, text } from '../support/commerce';

let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
let editor: SignedIn;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url });
  admin = await signInAdmin(t);
  editor = await contentAdmin(t);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const family = () => linkedFamily(t, smtp, 15, 'US');

const courseProduct = (courseId: string) => ({
  kind: 'course',
  title: text('Python course'),
  description: text('The whole course'),
  prices: [{ currency: 'VND', amount: 99000 }],
  courseIds: [courseId],
});

describe('paid courses open only with an entitlement (docs/commerce.md)', () => {
  it('shows paid in the catalog; refuses enroll, lessons and progress without an entitlement; opens what a guardian bought for the learner', async () => {
    const free = await publishedCourse(t, editor, { maxAge: 17 });
    const paid = await publishedCourse(t, editor, { maxAge: 17 });
    const { guardian, learner } = await family();
    const other = await family();

    // Before any product sells it, a course is free.
    expect((await t.http.get(`/courses/${paid.id}`, { token: learner.accessToken })).body.paid).toBe(false);
    await publishedProduct(t, admin, courseProduct(paid.id));

    const catalog = await t.http.get('/courses?first=100', { token: learner.accessToken });
    const shown = new Map(catalog.body.items.map((c: { id: string; paid: boolean }) => [c.id, c.paid]));
    expect(shown.get(paid.id)).toBe(true);
    expect(shown.get(free.id)).toBe(false);
    const gqlCatalog = await t.http.gql(
      '{ courses(first: 100) { edges { node { id paid } } } }',
      {},
      learner.accessToken,
    );
    expect(
      gqlCatalog.body.data.courses.edges.find((e: { node: { id: string } }) => e.node.id === paid.id).node.paid,
    ).toBe(true);

    // A free course opens as before.
    expect(
      (await t.http.post(`/courses/${free.id}/enrollment`, undefined, { token: learner.accessToken })).status,
    ).toBe(201);
    expect((await t.http.get(`/courses/${free.id}`)).status).toBe(200);

    // The paid one: enrollment, lessons, progress refused.
    const enroll = await t.http.post(`/courses/${paid.id}/enrollment`, undefined, { token: learner.accessToken });
    expect(enroll.status).toBe(403);
    expect(enroll.body).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/bought/) });
    const gqlEnroll = await t.http.gql(
      'mutation($id: ID!) { enroll(courseId: $id) { enrolledAt } }',
      { id: paid.id },
      learner.accessToken,
    );
    expect(gqlEnroll.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.http.get(`/courses/${paid.id}`, { token: learner.accessToken })).status).toBe(403);
    expect((await t.http.get(`/courses/${paid.id}`)).status).toBe(401);
    const lessons = await t.http.gql(
      'query($id: ID!) { course(id: $id) { id paid lessons { id content { en } } } }',
      { id: paid.id },
      learner.accessToken,
    );
    expect(lessons.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(JSON.stringify(lessons.body)).not.toContain('Content 1');
    expect(
      (await t.http.post(`/progress/lessons/${paid.lessonIds[0]}/complete`, {}, { token: learner.accessToken })).status,
    ).toBe(403);
    expect(
      (
        await t.http.post(
          `/progress/lessons/${paid.lessonIds[0]}/quiz`,
          { answers: [1, 0] },
          { token: learner.accessToken },
        )
      ).status,
    ).toBe(403);
    expect((await t.http.get(`/progress/courses/${paid.id}`, { token: learner.accessToken })).status).toBe(403);
    // Content admins still see it whole.
    expect((await t.http.get(`/courses/${paid.id}`, { token: editor.accessToken })).body.lessons).toHaveLength(2);

    // The guardian buys it for the learner: the learner (the beneficiary) opens it; the guardian's other child does not.
    const product = (await t.http.get('/products?first=100')).body.items.find((p: { courseIds: string[] }) =>
      p.courseIds.includes(paid.id),
    );
    await buy(t, guardian, product, { learnerId: learner.id });
    expect(
      (await t.http.post(`/courses/${paid.id}/enrollment`, undefined, { token: learner.accessToken })).status,
    ).toBe(201);
    const opened = await t.http.get(`/courses/${paid.id}`, { token: learner.accessToken });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      paid: true,
      lessons: [{ content: { en: 'Content 1' } }, { content: { en: 'Content 2' } }],
    });
    expect(
      (await t.http.post(`/progress/lessons/${paid.lessonIds[0]}/complete`, {}, { token: learner.accessToken })).status,
    ).toBe(200);
    expect((await t.http.get(`/progress/courses/${paid.id}`, { token: learner.accessToken })).status).toBe(200);
    expect(
      (await t.http.post(`/courses/${paid.id}/enrollment`, undefined, { token: other.learner.accessToken })).status,
    ).toBe(403);

    // An admin's grant opens it too; its revocation closes it again.
    const granted = await t.http.post(
      '/entitlements/grants',
      { userId: other.learner.id, kind: 'course', courseId: paid.id },
      { token: admin.accessToken },
    );
    expect(granted.status).toBe(201);
    expect((await t.http.get(`/courses/${paid.id}`, { token: other.learner.accessToken })).status).toBe(200);
    expect(
      (await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, { token: admin.accessToken })).status,
    ).toBe(200);
    expect((await t.http.get(`/courses/${paid.id}`, { token: other.learner.accessToken })).status).toBe(403);
  });

  it("keeps a paid course's CodeLab exercises closed until bought: out of lists, 403 to read and to submit (REST and GraphQL)", async () => {
    const paid = await publishedCourse(t, editor, { maxAge: 17 });
    const exercise = (courseId?: string) => ({
      title: text('Echo'),
      prompt: text('Print the input'),
      language: 'javascript',
      starterCode: '',
      difficulty: 'easy',
      ...(courseId && { courseId }),
      tests: [{ name: 'one', hidden: true, input: '31337\n', expected: '31337\n' }],
    });
    const closed = (await t.http.post('/codelab/exercises', exercise(paid.id), { token: editor.accessToken })).body;
    const open = (await t.http.post('/codelab/exercises', exercise(), { token: editor.accessToken })).body;
    await publishedProduct(t, admin, courseProduct(paid.id));
    const { guardian, learner } = await family();

    const listed = async () =>
      (await t.http.get('/codelab/exercises?limit=100', { token: learner.accessToken })).body.items.map(
        (e: { id: string }) => e.id,
      );
    expect(await listed()).toContain(open.id);
    expect(await listed()).not.toContain(closed.id);
    const gqlList = await t.http.gql('{ codelabExercises(first: 100) { nodes { id } } }', {}, learner.accessToken);
    expect(gqlList.body.data.codelabExercises.nodes.map((e: { id: string }) => e.id)).not.toContain(closed.id);
    expect((await t.http.get(`/codelab/exercises?courseId=${paid.id}`, { token: learner.accessToken })).status).toBe(
      403,
    );
    const read = await t.http.get(`/codelab/exercises/${closed.id}`, { token: learner.accessToken });
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ error: 'forbidden', message: expect.stringMatching(/bought/) });
    expect(JSON.stringify(read.body)).not.toContain('Print the input');
    const gqlRead = await t.http.gql(
      'query($id: ID!) { codelabExercise(id: $id) { prompt { en } } }',
      { id: closed.id },
      learner.accessToken,
    );
    expect(gqlRead.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(gqlRead.body.data).toBeNull();
    expect(
      (
        await t.http.post(
          `/codelab/exercises/${closed.id}/submissions`,
          { code: 'console.log(1)' },
          { token: learner.accessToken },
        )
      ).status,
    ).toBe(403);
    const gqlSubmit = await t.http.gql(
      'mutation($id: ID!) { submitSolution(id: $id, code: "console.log(1)") { id } }',
      { id: closed.id },
      learner.accessToken,
    );
    expect(gqlSubmit.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    // Object identification applies the same rule (node(id:) once skipped the paid-course rule of lessons).
    const NODE = 'query($id: ID!) { node(id: $id) { id ... on Exercise { prompt { en } } } }';
    const asNode = await t.http.gql(NODE, { id: closed.id }, learner.accessToken);
    expect(asNode.body.data.node).toBeNull();
    expect(JSON.stringify(asNode.body)).not.toContain('Print the input');
    // Content admins see it; an unknown exercise is still not found.
    expect((await t.http.get(`/codelab/exercises/${closed.id}`, { token: editor.accessToken })).status).toBe(200);
    expect(
      (await t.http.get('/codelab/exercises/00000000-0000-4000-8000-000000000000', { token: learner.accessToken }))
        .status,
    ).toBe(404);

    // Bought for the learner: listed, read and submitted.
    const product = (await t.http.get('/products?first=100')).body.items.find((p: { courseIds: string[] }) =>
      p.courseIds.includes(paid.id),
    );
    await buy(t, guardian, product, { learnerId: learner.id });
    expect(await listed()).toContain(closed.id);
    expect((await t.http.get(`/codelab/exercises/${closed.id}`, { token: learner.accessToken })).body.prompt.en).toBe(
      'Print the input',
    );
    expect((await t.http.gql(NODE, { id: closed.id }, learner.accessToken)).body.data.node.prompt.en).toBe(
      'Print the input',
    );
    expect(
      (
        await t.http.post(
          `/codelab/exercises/${closed.id}/submissions`,
          { code: 'console.log(1)' },
          { token: learner.accessToken },
        )
      ).status,
    ).toBe(202);
  });

  it("reads a catalog page's paid in one statement, however the operation asks for it", async () => {
    const courses = [];
    for (let i = 0; i < 4; i++) courses.push(await publishedCourse(t, editor, { maxAge: 17 }));
    await publishedProduct(t, admin, courseProduct(courses[1].id));
    await publishedProduct(t, admin, courseProduct(courses[3].id));
    const learner = await learnerOfAge(t, 15, { country: 'US' });
    const expected = new Map(courses.map((course, i) => [course.id, i % 2 === 1]));
    const shown = (edges: { node: { id: string; isPaid?: boolean; paid?: boolean } }[]) =>
      new Map(edges.filter((e) => expected.has(e.node.id)).map((e) => [e.node.id, e.node.paid ?? e.node.isPaid]));

    const fragment =
      'query($first: Int) { courses(first: $first) { edges { node { ...Priced } } } } fragment Priced on Course { id isPaid: paid }';
    const asked = await fewestStatements(t, () => t.http.gql(fragment, { first: 4 }, learner.accessToken));
    expect(shown(asked.result.body.data.courses.edges)).toEqual(expected);
    const more = await fewestStatements(t, () => t.http.gql(fragment, { first: 50 }, learner.accessToken));
    expect(more.count).toBe(asked.count);
    const without = await fewestStatements(t, () =>
      t.http.gql(
        'query($first: Int) { courses(first: $first) { edges { node { id } } } }',
        { first: 50 },
        learner.accessToken,
      ),
    );
    expect(without.count).toBe(asked.count - 1);

    const rest = await t.http.get('/courses?limit=50', { token: learner.accessToken });
    expect(shown(rest.body.items.map((node: { id: string; paid: boolean }) => ({ node })))).toEqual(expected);
    // A course read alone still answers through its own loader.
    expect(
      (await t.http.gql('query($id: ID!) { course(id: $id) { paid } }', { id: courses[3].id }, learner.accessToken))
        .body.data.course.paid,
    ).toBe(true);
  });
});
