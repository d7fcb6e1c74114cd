import type { TestApp } from '../support/app';
import { inEveryRegion } from '../support/regions';
import { adultSignup, type SignedIn, signInAdmin, signUp, uniqueEmail } from '../support/users';

const text = (en: string, vi = `${en} (vi)`) => ({ en, vi });

/** A course body as a content admin writes it: `lessons` lessons, each with a two-question quiz. */
export function courseBody(overrides: Record<string, unknown> = {}, lessons = 2) {
  return {
    title: text('Python for beginners', 'Python cho người mới bắt đầu'),
    description: text('Variables, loops and functions', 'Biến, vòng lặp và hàm'),
    level: 'beginner',
    minAge: 10,
    maxAge: 14,
    language: 'vi',
    passMark: 50,
    lessons: Array.from({ length: lessons }, (_, i) => ({
      title: text(`Lesson ${i + 1}`),
      objectives: { en: [`Objective ${i + 1}`], vi: [`Mục tiêu ${i + 1}`] },
      content: text(`Content ${i + 1}`),
      quiz: [
        {
          prompt: text('2 + 2?'),
          options: [text('3'), text('4')],
          answerIndex: 1,
          explanation: text('Two and two make four.'),
        },
        {
          prompt: text('print is a...'),
          options: [text('function'), text('loop')],
          answerIndex: 0,
          explanation: text('print() is a function.'),
        },
      ],
    })),
    ...overrides,
  };
}

/** A content admin, made by an admin. */
export async function contentAdmin(t: TestApp): Promise<SignedIn> {
  const admin = await signInAdmin(t);
  const editor = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('editor') }));
  await t.http.post(`/admin/users/${editor.id}/roles`, { role: 'content_admin' }, { token: admin.accessToken });
  return editor;
}

/** A published course; returns its id and lesson ids. */
export async function publishedCourse(
  t: TestApp,
  editor: SignedIn,
  overrides: Record<string, unknown> = {},
  lessons = 2,
) {
  const created = await t.http.post('/courses', courseBody(overrides, lessons), { token: editor.accessToken });
  if (created.status !== 201) throw new Error(`course not created: ${JSON.stringify(created.body)}`);
  await t.http.post(`/courses/${created.body.id}/publish`, undefined, { token: editor.accessToken });
  // Learners are mostly of region vn, whose copy of the course comes by replication.
  await inEveryRegion(t, 'select 1 from courses where id = ? and published', [created.body.id]);
  return {
    id: created.body.id as string,
    lessonIds: created.body.lessons.map((l: { id: string }) => l.id) as string[],
  };
}
