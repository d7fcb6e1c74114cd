import express, { type Request } from 'express';
import pg from 'pg';
import type { Config } from '../../src/config';
import { authenticateHeader } from '../../src/kernel/tokens';
import { courseProgressOf, type ExerciseProgress, streak } from '../../src/progress/progress.service';
import type { Localized } from '../../src/kernel/localized';

/**
 * The bare baseline of the learning bench: express and pg with nothing between them, checking the
 * same JWT, sending the statements the service sends for the catalog's first page and the guardian
 * dashboard, and writing the same JSON as the REST rows (run.ts compares the bodies before timing).
 */
export function learningBaseline(
  config: Config,
  databaseUrl: string,
): { app: express.Express; close(): Promise<void> } {
  // Dates (birth dates) as the text stored, like the service; timestamps as Date.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 1082 ? (value: string) => value : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, types: types as never });
  pool.on('error', () => {}); // the database stopping at the end of the run
  const query = async <T = Row>(text: string, params: unknown[]): Promise<T[]> =>
    (await pool.query(text, params)).rows as T[];
  // The service's own verifier: jsonwebtoken given the secret as a string first tries it as a
  // public key, which cost this baseline 40% of its time and flattered every ratio against it.
  const caller = (req: Request) => authenticateHeader(config, req.headers.authorization).userId!;
  const viewer = async (id: string) =>
    (await query('select u0.* from users as u0 where u0.id = $1 limit $2', [id, 1]))[0];

  const app = express();
  app.get('/courses', async (req, res) => {
    await viewer(caller(req));
    const first = Number(req.query.limit ?? 20);
    const rows = await query(
      'select c.* from courses as c where c.published = $1 order by c.created_at desc, c.id desc limit $2',
      [true, first + 1],
    );
    const nodes = rows.slice(0, first);
    const paid = new Set(
      (
        await query<{ course_id: string }>(
          `select distinct c.value as course_id from products p, jsonb_array_elements_text(p.course_ids) c
           where p.status = 'published' and p.kind <> 'subscription' and c.value = any(string_to_array($1, ','))`,
          [nodes.map((c) => c.id).join(',')],
        )
      ).map((r) => r.course_id),
    );
    const last = nodes.at(-1);
    res.json({
      items: nodes.map((c) => ({
        id: c.id,
        title: localized(c.title),
        description: localized(c.description),
        level: c.level,
        minAge: c.min_age,
        maxAge: c.max_age,
        language: c.language,
        passMark: c.pass_mark,
        published: c.published,
        paid: paid.has(c.id as string),
        createdAt: c.created_at,
      })),
      nextCursor:
        rows.length > first && last
          ? Buffer.from(`${(last.created_at as Date).toISOString()}|${last.id}`).toString('base64url')
          : null,
    });
  });

  app.get('/guardian/dashboard', async (req, res) => {
    const me = await viewer(caller(req));
    if (!me || !(me.roles as string[]).includes('guardian') || me.email_verified_at === null)
      return res.status(403).json({ error: 'forbidden' });
    const learners = await query(
      `select l1.* from guardian_links as g0 left join users as l1 on g0.learner_id = l1.id
       where g0.guardian_id = $1 and g0.status = $2 and g0.learner_id is not null order by g0.activated_at asc`,
      [me.id, 'active'],
    );
    const ids = learners.map((l) => l.id as string);
    const enrollments = await query(
      `select e0.learner_id, c1.id, c1.title from enrollments as e0 inner join courses as c1 on e0.course_id = c1.id where e0.learner_id = any($1) order by e0.created_at desc`,
      [ids],
    );
    const courseIds = [...new Set(enrollments.map((e) => e.id as string))];
    const array = `{${ids.join(',')}}`;
    const [certificates, lessonCounts, completions, scores, days, exerciseRows] = await Promise.all([
      query(
        `select c0.*, c1.title, l2.display_name from certificates as c0 inner join courses as c1 on c0.course_id = c1.id inner join users as l2 on c0.learner_id = l2.id
         where c0.learner_id = any($1) order by c0.issued_at desc, c0.id desc`,
        [ids],
      ),
      courseIds.length
        ? query(
            'select course_id, count(*)::int as n from lessons where course_id = any($1::uuid[]) group by course_id',
            [`{${courseIds.join(',')}}`],
          )
        : [],
      query(
        'select learner_id, course_id, count(*)::int as n, sum(time_spent_seconds)::int as seconds, max(completed_at) as last from lesson_completions where learner_id = any($1::uuid[]) group by 1, 2',
        [array],
      ),
      query(
        `select learner_id, course_id, avg(best)::float as average, max(last) as last from (
           select learner_id, course_id, lesson_id, max(score) as best, max(created_at) as last from quiz_attempts where learner_id = any($1::uuid[]) group by 1, 2, 3
         ) best group by 1, 2`,
        [array],
      ),
      query(
        `select learner_id, array_agg(distinct day order by day desc) as days from (
           select learner_id, (completed_at at time zone 'utc')::date as day from lesson_completions where learner_id = any($1::uuid[])
           union select learner_id, (created_at at time zone 'utc')::date from quiz_attempts where learner_id = any($2::uuid[])
         ) activity group by 1`,
        [array, array],
      ),
      query(
        'select learner_id, course_id, exercise_id, lesson_id, best_score, accepted, updated_at from exercise_results where learner_id = any($1::uuid[]) and course_id is not null order by updated_at, exercise_id',
        [array],
      ),
    ]);
    const key = (learner: unknown, course: unknown) => `${String(learner)}:${String(course)}`;
    const totals = new Map(lessonCounts.map((r) => [String(r.course_id), Number(r.n)]));
    const done = new Map(completions.map((r) => [key(r.learner_id, r.course_id), r]));
    const best = new Map(scores.map((r) => [key(r.learner_id, r.course_id), r]));
    const activity = new Map(days.map((r) => [String(r.learner_id), parseDays(r.days)]));
    const exercises = new Map<string, Row[]>();
    for (const r of exerciseRows) {
      const k = key(r.learner_id, r.course_id);
      if (!exercises.has(k)) exercises.set(k, []);
      exercises.get(k)!.push({
        exerciseId: r.exercise_id,
        lessonId: r.lesson_id,
        bestScore: Number(r.best_score),
        accepted: r.accepted,
        updatedAt: r.updated_at,
      });
    }
    const items = learners.map((l) => {
      const courses = enrollments
        .filter((e) => e.learner_id === l.id)
        .map((e) => {
          const total = totals.get(e.id as string) ?? 0;
          const d = done.get(key(l.id, e.id));
          const b = best.get(key(l.id, e.id));
          const ex = exercises.get(key(l.id, e.id)) ?? [];
          const progress = courseProgressOf(
            { id: e.id as string, title: e.title as Localized },
            total,
            d,
            b,
            ex as unknown as ExerciseProgress[],
          );
          return { ...progress, courseTitle: localized(e.title) };
        });
      const last =
        courses
          .map((c) => c.lastActivityAt)
          .filter((x): x is Date => x !== null)
          .sort((x, y) => y.getTime() - x.getTime())[0] ?? null;
      return {
        learner: {
          id: l.id,
          displayName: l.display_name,
          email: l.email,
          birthDate: l.birth_date,
          country: l.country,
          locale: l.locale,
          status: l.status,
        },
        progress: {
          learnerId: l.id,
          streakDays: streak(activity.get(l.id as string) ?? []),
          lastActivityAt: last,
          timeSpentSeconds: courses.reduce((s, c) => s + c.timeSpentSeconds, 0),
          courses,
        },
        certificates: certificates
          .filter((c) => c.learner_id === l.id)
          .map((c) => ({
            id: c.id,
            code: c.code,
            courseId: c.course_id,
            courseTitle: localized(c.title),
            learnerName: c.display_name,
            averageScore: c.average_score,
            issuedAt: c.issued_at,
          })),
      };
    });
    res.json({ items });
  });
  // A failure is a non-2xx answer, counted in the figures.
  app.use(((_error, _req, res, _next) => void res.status(500).end()) as express.ErrorRequestHandler);
  return { app, close: () => pool.end() };
}

type Row = Record<string, unknown>;

function localized(value: unknown): { en: unknown; vi: unknown } {
  const text = value as { en?: unknown; vi?: unknown };
  return { en: text.en ?? null, vi: text.vi ?? null };
}

/** `array_agg` of dates: pg gives the array as text here (the date parser is the identity). */
function parseDays(value: unknown): string[] {
  const days =
    typeof value === 'string' ? value.replace(/[{}]/g, '').split(',').filter(Boolean) : (value as (string | Date)[]);
  return days.map((d) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10)));
}
