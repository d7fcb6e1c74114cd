import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { AuthService, User } from '../auth';
import type { CertificatesService } from '../certificates';
import type { Course, Lesson } from '../courses';
import type { CoursesService } from '../courses';
import { AppError } from '../kernel/errors';
import { QuizAttempt } from './progress.entity';
import type { Localized } from '../kernel/localized';
import { notEnrolled, quizAttemptsUsedUp, unknownEnrollment, unknownQuiz, wrongAnswerCount } from './progress.errors';

/** A learner's best on one CodeLab exercise of a course. */
export interface ExerciseProgress {
  exerciseId: string;
  lessonId: string | null;
  /** The best score of the learner's judged submissions, 0..100. */
  bestScore: number;
  accepted: boolean;
  updatedAt: Date;
}

/** What CodeLab's exerciseJudged event tells. */
export interface ExerciseJudged {
  learnerId: string;
  exerciseId: string;
  courseId: string | null;
  lessonId: string | null;
  score: number;
  accepted: boolean;
}

export interface CourseProgress {
  courseId: string;
  courseTitle: Localized;
  lessonsTotal: number;
  lessonsCompleted: number;
  percent: number;
  /** The average of the best score of each quiz taken; null before any. */
  averageScore: number | null;
  timeSpentSeconds: number;
  lastActivityAt: Date | null;
  completed: boolean;
  /** CodeLab exercises of the course the learner submitted, each with its best score. */
  exercises: ExerciseProgress[];
  exercisesAccepted: number;
}

/** A course's figures in one region's database (`courseFigures`). */
export interface CourseFigures {
  completions: number;
  bestScoreTotal: number;
  bestScores: number;
}

/** The average of the best quiz scores the figures count, rounded; null when nobody answered a quiz. */
export const averageScore = (figures: CourseFigures): number | null =>
  figures.bestScores ? Math.round(figures.bestScoreTotal / figures.bestScores) : null;

export interface LearnerOverview {
  learnerId: string;
  streakDays: number;
  lastActivityAt: Date | null;
  timeSpentSeconds: number;
  courses: CourseProgress[];
}

export interface QuizResult {
  lessonId: string;
  score: number;
  correct: number;
  total: number;
  attempt: number;
  /** Right or wrong and why, per question; never the right option, which would let the next attempt copy it. */
  results: { correct: boolean; explanation: Localized }[];
}

type Row = Record<string, unknown>;
const key = (learnerId: string, courseId: string) => `${learnerId}:${courseId}`;

export class ProgressService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly courses: CoursesService,
    private readonly certificates: CertificatesService,
    private readonly auth: AuthService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** Harmless twice: the first completion counts, the rest change nothing. */
  async completeLesson(learner: User, lessonId: string, timeSpentSeconds = 0): Promise<CourseProgress> {
    const lesson = await this.enrolledLesson(learner, lessonId);
    // The completion, the certificate it may earn and the notifications (outbox events) are one commit.
    return this.uow.transaction(async (em) => {
      // One learner's completions in a course take turns: the last two done at once must see each other.
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        `progress:${learner.id}:${lesson.course.id}`,
      ]);
      const inserted = await em.execute<Row[]>(
        `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) values (gen_random_uuid(), ?, ?, ?, ?, now())
         on conflict (learner_id, lesson_id) do nothing returning id`,
        [learner.id, lesson.id, lesson.course.id, Math.max(0, Math.round(timeSpentSeconds))],
      );
      const progress = await this.afterProgress(learner, lesson.course);
      if (inserted.length && progress.completed) await this.notifyCompletion(learner, lesson.course);
      else if (inserted.length && reachedHalfway(progress)) await this.notifyHalfway(learner, lesson.course);
      return progress;
    });
  }

  /**
   * Answers are checked here, never on the client; every attempt is kept. A learner has
   * QUIZ_MAX_ATTEMPTS attempts per quiz (counted under a lock, so concurrent ones cannot pass it):
   * with right/wrong per question, unlimited attempts would find every answer by elimination.
   */
  async submitQuiz(learner: User, lessonId: string, answers: number[]): Promise<QuizResult> {
    const lesson = await this.enrolledLesson(learner, lessonId);
    if (!lesson.quiz) throw unknownQuiz();
    const questions = lesson.quiz.questions;
    if (answers.length !== questions.length) throw wrongAnswerCount(questions.length);
    const results = questions.map((q, i) => ({ correct: answers[i] === q.answerIndex, explanation: q.explanation }));
    const correct = results.filter((r) => r.correct).length;
    const score = Math.round((correct / questions.length) * 100);
    const limit = this.uow.deps.config.QUIZ_MAX_ATTEMPTS;
    const attempt = await this.uow.transaction(async (em) => {
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`quiz:${learner.id}:${lesson.id}`]);
      const before = await em.count(QuizAttempt, { learner, lesson });
      if (before >= limit) throw quizAttemptsUsedUp(limit);
      em.create(QuizAttempt, {
        learner,
        lesson,
        course: lesson.course,
        answers,
        correct,
        total: questions.length,
        score,
      });
      await em.flush();
      // The certificate the attempt may earn is raised in the same commit.
      await this.afterProgress(learner, lesson.course);
      return before + 1;
    });
    return { lessonId: lesson.id, score, correct, total: questions.length, attempt, results };
  }

  /**
   * The reaction to a judged CodeLab submission: the best score per exercise is kept (whatever order
   * the verdicts arrive in), and an accepted exercise linked to a lesson of a course the learner is
   * enrolled in completes that lesson (with the certificate and notifications that may follow).
   */
  async exerciseJudged(event: ExerciseJudged): Promise<void> {
    const score = Math.max(0, Math.min(100, Math.round(event.score)));
    await this.em.execute(
      `insert into exercise_results (id, learner_id, exercise_id, course_id, lesson_id, best_score, accepted, updated_at) values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, now())
       on conflict (learner_id, exercise_id) do update set best_score = greatest(exercise_results.best_score, excluded.best_score), accepted = exercise_results.accepted or excluded.accepted,
       course_id = excluded.course_id, lesson_id = excluded.lesson_id, updated_at = now()`,
      [event.learnerId, event.exerciseId, event.courseId, event.lessonId, score, event.accepted],
    );
    if (!event.accepted || !event.lessonId) return;
    const learner = await this.auth.findUser(event.learnerId);
    const lesson = await this.courses.lesson(event.lessonId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    });
    if (!learner || !lesson || !(await this.courses.isEnrolled(learner.id, lesson.course.id))) return;
    await this.completeLesson(learner, lesson.id);
  }

  async courseProgress(learnerId: string, courseId: string): Promise<CourseProgress> {
    const overview = (await this.overviews([learnerId]))[0];
    const progress = overview.courses.find((c) => c.courseId === courseId);
    if (!progress) throw unknownEnrollment();
    return progress;
  }

  /** One learner's overview, batched with every other learner the same query walks to. */
  overviewOf(learnerId: string): Promise<LearnerOverview> {
    // The loader keeps no cache, so a tick's keys repeat (a list of 20 enrollments asks for its learner 20 times): each learner is read once.
    return this.uow
      .loader<string, LearnerOverview>('progress.overviews', async (ids) => {
        const unique = [...new Set(ids)];
        const overviews = new Map((await this.overviews(unique)).map((overview) => [overview.learnerId, overview]));
        return ids.map((id) => overviews.get(id)!);
      })
      .load(learnerId);
  }

  /**
   * Per course, this region's learners' part: who completed every lesson, and the sum and number of
   * their best quiz scores (one per learner and lesson). A course's learners are in every region:
   * these parts add up (`averageScore` of the sums).
   */
  async courseFigures(courseIds: string[]): Promise<Map<string, CourseFigures>> {
    if (!courseIds.length) return new Map();
    const ids = `{${courseIds.join(',')}}`;
    const [lessonCounts, done, scores] = await this.uow.all([
      () => this.courses.lessonCounts(courseIds),
      () =>
        this.uow.query<{ course_id: string; learner_id: string; n: number }>(
          'select course_id, learner_id, count(*)::int as n from lesson_completions where course_id = any(?::uuid[]) group by 1, 2',
          [ids],
        ),
      () =>
        this.uow.query<{ course_id: string; total: number; n: number }>(
          'select course_id, sum(best)::int as total, count(*)::int as n from (select course_id, max(score) as best from quiz_attempts where course_id = any(?::uuid[]) group by course_id, learner_id, lesson_id) b group by course_id',
          [ids],
        ),
    ] as const);
    const lessons = new Map(lessonCounts.map((row) => [row.course_id, row.n]));
    const best = new Map(scores.map((row) => [row.course_id, row]));
    return new Map(
      courseIds.map((id) => [
        id,
        {
          completions: done.filter((row) => row.course_id === id && row.n >= (lessons.get(id) ?? 0)).length,
          bestScoreTotal: best.get(id)?.total ?? 0,
          bestScores: best.get(id)?.n ?? 0,
        },
      ]),
    );
  }

  async overview(learnerId: string): Promise<LearnerOverview> {
    return (await this.overviews([learnerId]))[0];
  }

  /**
   * Progress of many learners in every course they are enrolled in, in a fixed number of queries
   * whatever their number, courses and lessons (the guardian dashboard reads it for all at once).
   */
  async overviews(learnerIds: string[]): Promise<LearnerOverview[]> {
    if (!learnerIds.length) return [];
    // The unit of work's manager: inside a transaction these reads see its own writes.
    const connection = this.em;
    const enrollments = await this.courses.enrolledCourses(learnerIds);
    const courseIds = [...new Set(enrollments.map((e) => e.course.id))];
    const ids = `{${learnerIds.join(',')}}`;
    const [lessonCounts, completions, scores, days, exerciseRows] = await this.uow.all([
      () => this.courses.lessonCounts(courseIds),
      () =>
        connection.execute<Row[]>(
          'select learner_id, course_id, count(*)::int as n, sum(time_spent_seconds)::int as seconds, max(completed_at) as last from lesson_completions where learner_id = any(?::uuid[]) group by 1, 2',
          [ids],
        ),
      () =>
        connection.execute<Row[]>(
          `select learner_id, course_id, avg(best)::float as average, max(last) as last from (
           select learner_id, course_id, lesson_id, max(score) as best, max(created_at) as last from quiz_attempts where learner_id = any(?::uuid[]) group by 1, 2, 3
         ) best group by 1, 2`,
          [ids],
        ),
      () =>
        connection.execute<Row[]>(
          `select learner_id, array_agg(distinct day order by day desc) as days from (
           select learner_id, (completed_at at time zone 'utc')::date as day from lesson_completions where learner_id = any(?::uuid[])
           union select learner_id, (created_at at time zone 'utc')::date from quiz_attempts where learner_id = any(?::uuid[])
         ) activity group by 1`,
          [ids, ids],
        ),
      () =>
        connection.execute<Row[]>(
          'select learner_id, course_id, exercise_id, lesson_id, best_score, accepted, updated_at from exercise_results where learner_id = any(?::uuid[]) and course_id is not null order by updated_at, exercise_id',
          [ids],
        ),
    ] as const);
    const exercises = new Map<string, ExerciseProgress[]>();
    for (const r of exerciseRows) {
      const k = key(String(r.learner_id), String(r.course_id));
      if (!exercises.has(k)) exercises.set(k, []);
      exercises.get(k)!.push({
        exerciseId: String(r.exercise_id),
        lessonId: r.lesson_id === null ? null : String(r.lesson_id),
        bestScore: Number(r.best_score),
        accepted: Boolean(r.accepted),
        updatedAt: new Date(r.updated_at as string),
      });
    }
    const totals = new Map(lessonCounts.map((r) => [r.course_id, r.n]));
    const done = new Map(completions.map((r) => [key(String(r.learner_id), String(r.course_id)), r]));
    const best = new Map(scores.map((r) => [key(String(r.learner_id), String(r.course_id)), r]));
    const activity = new Map(days.map((r) => [String(r.learner_id), (r.days as (string | Date)[]).map(toDay)]));
    return learnerIds.map((learnerId) => {
      const courses = enrollments
        .filter((e) => e.learnerId === learnerId)
        .map((e) =>
          courseProgressOf(
            e.course,
            totals.get(e.course.id) ?? 0,
            done.get(key(learnerId, e.course.id)),
            best.get(key(learnerId, e.course.id)),
            exercises.get(key(learnerId, e.course.id)) ?? [],
          ),
        );
      const last =
        courses
          .map((c) => c.lastActivityAt)
          .filter((d): d is Date => d !== null)
          .sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
      return {
        learnerId,
        streakDays: streak(activity.get(learnerId) ?? []),
        lastActivityAt: last,
        timeSpentSeconds: courses.reduce((s, c) => s + c.timeSpentSeconds, 0),
        courses,
      };
    });
  }

  private async enrolledLesson(learner: User, lessonId: string): Promise<Lesson> {
    const lesson = await this.courses.lesson(lessonId);
    if (!(await this.courses.isEnrolled(learner.id, lesson.course.id))) throw notEnrolled();
    return lesson;
  }

  /** A finished course with the pass mark earns its certificate. */
  private async afterProgress(learner: User, course: Course): Promise<CourseProgress> {
    const progress = await this.courseProgress(learner.id, course.id);
    if (progress.completed && (progress.averageScore ?? 100) >= course.passMark)
      await this.certificates.issue(learner, course, progress.averageScore ?? 100);
    return progress;
  }

  private async notifyHalfway(learner: User, course: Course): Promise<void> {
    // Announced through the outbox: delivered after commit, once, to the learner and the guardians linked then.
    await this.uow.raise({
      type: 'notification.requested_with_guardians',
      learnerId: learner.id,
      notificationType: 'progress',
      learner: {
        title: { en: 'Halfway there!', vi: 'Đã được một nửa!' },
        body: { en: `You finished half of "${course.title.en}".`, vi: `Bạn đã học xong một nửa "${course.title.vi}".` },
        data: { courseId: course.id, milestone: 'halfway' },
      },
      guardian: {
        title: {
          en: `${learner.displayName} is halfway through a course`,
          vi: `${learner.displayName} đã học được một nửa khóa học`,
        },
        body: {
          en: `${learner.displayName} finished half of "${course.title.en}".`,
          vi: `${learner.displayName} đã học xong một nửa "${course.title.vi}".`,
        },
        data: { courseId: course.id, milestone: 'halfway' },
      },
    });
  }

  private async notifyCompletion(learner: User, course: Course): Promise<void> {
    await this.uow.raise({
      type: 'notification.requested_with_guardians',
      learnerId: learner.id,
      notificationType: 'progress',
      learner: {
        title: { en: 'Course finished!', vi: 'Đã hoàn thành khóa học!' },
        body: {
          en: `You finished every lesson of "${course.title.en}".`,
          vi: `Bạn đã học xong mọi bài của "${course.title.vi}".`,
        },
        data: { courseId: course.id },
      },
      guardian: {
        title: { en: `${learner.displayName} finished a course`, vi: `${learner.displayName} đã học xong một khóa` },
        body: {
          en: `${learner.displayName} finished every lesson of "${course.title.en}".`,
          vi: `${learner.displayName} đã học xong mọi bài của "${course.title.vi}".`,
        },
        data: { courseId: course.id },
      },
    });
  }
}

/** One course's progress from its lesson count and the learner's completion, quiz and exercise rows. */
export function courseProgressOf(
  course: { id: string; title: Localized },
  total: number,
  done: Row | undefined,
  best: Row | undefined,
  exercises: ExerciseProgress[],
): CourseProgress {
  const completed = Number(done?.n ?? 0);
  const lasts = [done?.last, best?.last, ...exercises.map((e) => e.updatedAt)]
    .filter(Boolean)
    .map((d) => new Date(d as string));
  return {
    courseId: course.id,
    courseTitle: course.title,
    lessonsTotal: total,
    lessonsCompleted: completed,
    percent: total ? Math.round((completed / total) * 100) : 0,
    averageScore: best ? Math.round(Number(best.average)) : null,
    timeSpentSeconds: Number(done?.seconds ?? 0),
    lastActivityAt: lasts.sort((a, b) => b.getTime() - a.getTime())[0] ?? null,
    completed: total > 0 && completed >= total,
    exercises,
    exercisesAccepted: exercises.filter((e) => e.accepted).length,
  };
}

/** The completion just made is the one that took the course to half or more. */
function reachedHalfway(progress: CourseProgress): boolean {
  const half = Math.ceil(progress.lessonsTotal / 2);
  return progress.lessonsTotal > 1 && progress.lessonsCompleted === half;
}

function toDay(value: string | Date): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/** Days in a row with activity, ending today or yesterday (UTC). */
export function streak(daysNewestFirst: string[]): number {
  const dayMs = 86_400_000;
  const today = Date.parse(new Date().toISOString().slice(0, 10));
  let expected = Date.parse(daysNewestFirst[0] ?? '') === today ? today : today - dayMs;
  let count = 0;
  for (const day of daysNewestFirst) {
    if (Date.parse(day) !== expected) break;
    count++;
    expected -= dayMs;
  }
  return count;
}
