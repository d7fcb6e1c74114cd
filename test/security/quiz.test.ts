import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { learnerOfAge, type SignedIn } from '../support/users';
import { withBasicData } from '../support/family';
import { contentAdmin, publishedCourse } from '../learning/support';

const ctx = withMailAndApp({ QUIZ_MAX_ATTEMPTS: '3' });
let t: TestApp;
let editor: SignedIn;
beforeAll(async () => {
  ({ t } = ctx);
  editor = await contentAdmin(t);
});

async function enrolled(courseId: string): Promise<SignedIn> {
  const learner = await withBasicData(t, await learnerOfAge(t, 14));
  await t.http.post(`/courses/${courseId}/enrollment`, undefined, { token: learner.accessToken });
  return learner;
}

const quiz = (who: SignedIn, lessonId: string, answers: number[]) =>
  t.http.post(`/progress/lessons/${lessonId}/quiz`, { answers }, { token: who.accessToken });

describe('quiz answers', () => {
  it('says right or wrong and why, never the right option (REST and GraphQL)', async () => {
    const course = await publishedCourse(t, editor);
    const learner = await enrolled(course.id);
    const reply = await quiz(learner, course.lessonIds[0], [0, 1]);
    expect(reply.status).toBe(200);
    expect(reply.body.score).toBe(0);
    for (const result of reply.body.results) {
      expect(Object.keys(result).sort()).toEqual(['correct', 'explanation']);
      expect(result.correct).toBe(false);
    }
    expect(JSON.stringify(reply.body)).not.toContain('correctIndex');
    const gql = await t.http.gql(
      'mutation($id: ID!) { submitQuiz(lessonId: $id, input: { answers: [0, 1] }) { results { correctIndex } } }',
      { id: course.lessonIds[0] },
      learner.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors?.[0].message).toMatch(/correctIndex/);
  });

  it('caps attempts per quiz (QUIZ_MAX_ATTEMPTS) with 409 limit_reached, also for concurrent attempts', async () => {
    const course = await publishedCourse(t, editor);
    const learner = await enrolled(course.id);
    for (let i = 1; i <= 3; i++) expect((await quiz(learner, course.lessonIds[0], [0, 1])).body.attempt).toBe(i);
    const fourth = await quiz(learner, course.lessonIds[0], [1, 0]);
    expect(fourth.status).toBe(409);
    expect(fourth.body.error).toBe('limit_reached');
    const gql = await t.http.gql(
      'mutation($id: ID!) { submitQuiz(lessonId: $id, input: { answers: [1, 0] }) { score } }',
      { id: course.lessonIds[0] },
      learner.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('LIMIT_REACHED');
    // The best of the allowed attempts counts; the refused one scored nothing.
    expect((await t.http.get(`/progress/courses/${course.id}`, { token: learner.accessToken })).body.averageScore).toBe(
      0,
    );

    const other = await enrolled(course.id);
    const together = await Promise.all(Array.from({ length: 8 }, () => quiz(other, course.lessonIds[1], [1, 0])));
    expect(together.filter((r) => r.status === 200)).toHaveLength(3);
    expect(together.filter((r) => r.status === 409)).toHaveLength(5);
    expect(
      together
        .filter((r) => r.status === 200)
        .map((r) => r.body.attempt)
        .sort(),
    ).toEqual([1, 2, 3]);
  });
});
