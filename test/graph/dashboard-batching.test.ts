import { beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import type { TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, verifiedGuardian } from '../support/users';
import { fewestStatements } from '../support/sql';

// The guardian dashboard as one query: however many learners and courses it shows, it reads the
// same number of SQL statements (every edge is batched over the parents the query walks to).
const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let courses: { id: string; lessonIds: string[] }[];

export const DASHBOARD = `query Dashboard {
  viewer {
    id
    unreadNotificationCount
    linkedLearners(first: 5) {
      totalCount
      nodes {
        id
        displayName
        progress { streakDays timeSpentSeconds lastActivityAt }
        enrollments(first: 20) { totalCount nodes { enrolledAt course { id title { en } } progress { percent completed averageScore lessonsCompleted lessonsTotal } } }
        certificates(first: 20) { totalCount nodes { id code courseTitle { en } issuedAt } }
        consents { consentTypeId granted }
        aiAccess { enabled memoryEnabled dailyMessageLimit }
      }
    }
  }
}`;

/** A verified guardian with `learners` linked learners, each enrolled in every course and done with the first. */
async function family(learners: number): Promise<SignedIn> {
  const guardian = await verifiedGuardian(t, smtp);
  for (let i = 0; i < learners; i++) {
    const learner = await withBasicData(t, await learnerOfAge(t, 14));
    await linkFamily(t, guardian, learner);
    await Promise.all(
      courses.map((course) =>
        t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken }),
      ),
    );
    await t.http.post(
      `/progress/lessons/${courses[0].lessonIds[0]}/complete`,
      { timeSpentSeconds: 30 },
      { token: learner.accessToken },
    );
  }
  return guardian;
}

const statements = <T>(run: () => Promise<T>) => fewestStatements(t, run);

beforeAll(async () => {
  ({ t, smtp } = ctx);
  const editor = await contentAdmin(t);
  courses = [];
  for (let i = 0; i < 20; i++) courses.push(await publishedCourse(t, editor, {}, 1));
}, 120_000);

describe('the guardian dashboard in one query', () => {
  it('reads as many statements for 5 learners x 20 courses as for 1 learner', { timeout: 240_000 }, async () => {
    const [one, five] = [await family(1), await family(5)];
    const small = await statements(() => t.http.gql(DASHBOARD, {}, one.accessToken));
    const large = await statements(() => t.http.gql(DASHBOARD, {}, five.accessToken));
    for (const reply of [small.result, large.result]) expect(reply.body.errors).toBeUndefined();
    const learners = large.result.body.data.viewer.linkedLearners.nodes;
    expect(learners).toHaveLength(5);
    for (const learner of learners) {
      expect(learner.enrollments.totalCount).toBe(20);
      expect(learner.enrollments.nodes).toHaveLength(20);
      expect(
        learner.enrollments.nodes.filter((e: { progress: { completed: boolean } }) => e.progress.completed),
      ).toHaveLength(1);
      expect(learner.certificates.totalCount).toBe(1);
      expect(learner.consents.length).toBeGreaterThan(0);
    }
    expect(large.result.body.data.viewer.unreadNotificationCount).toBeGreaterThanOrEqual(5);
    expect(small.result.body.data.viewer.linkedLearners.nodes).toHaveLength(1);
    expect(large.count).toBe(small.count);
  });
});
