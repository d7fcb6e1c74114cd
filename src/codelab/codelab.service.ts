import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { Role, type User } from '../auth';
import type { AiService } from '../ai';
import type { Config } from '../config';
import type { Deps } from '../kernel/deps';
import { perProcess } from '../kernel/deps';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { type Difficulty, Exercise, type ExerciseTest, Submission } from './codelab.entity';
import { exerciseNotFound, solutionTooLarge, submissionNotFound } from './codelab.errors';
import { judge } from './codelab.judge';
import { CodeRunner, codeRunnerSettings, type Language, type RunResult } from './sandbox';

export const SUBMISSION_UPDATED = 'CODELAB_SUBMISSION_UPDATED';
export const JUDGE_JOB = 'codelab-judge';
/** Shows a judged submission's verdict at its `releaseAt` (its payload is a JudgeJob too). */
export const RELEASE_JOB = 'codelab-release';
export interface JudgeJob {
  submissionId: string;
}

/**
 * How long after its submission a verdict is shown: a run's time limit (and room for starting it)
 * per test, what judging takes at most when every test runs to its limit one after another. The
 * number of tests is public, the time each hidden test ran is not.
 */
const verdictDelayMs = (config: Config, tests: number) =>
  tests * (config.CODELAB_VERDICT_DELAY_PER_TEST_MS ?? config.CODELAB_TIME_LIMIT_MS + 500);

/**
 * The moments a verdict may be shown: the delay after the submission, then twice it, four times it,
 * and so on. Judging that outlasts the delay (a busy machine, a program that waits rather than
 * computes) tells only in which of these it ended, and a submission whose judging never ends costs
 * a release job run a doubling, not one a delay. Of them, the last at or before `now`, and the next.
 */
function releaseMoments(createdAt: Date, releaseAt: Date, now: number): { due: number; next: number } {
  const created = createdAt.getTime();
  let after = Math.max(1, releaseAt.getTime() - created);
  while (created + 2 * after <= now) after *= 2;
  return { due: created + after, next: created + 2 * after };
}

/** The interpreters, one pool per process; started at boot unless CODELAB_PREWARM=false. */
export const codeRunnerOf = perProcess(
  (deps: Deps) => new CodeRunner({ ...codeRunnerSettings(deps.config), logger: deps.log }),
);

/** Runs per user a minute (CODELAB_RUNS_PER_MINUTE), for POST /codelab/run and POST /projects/:id/run, in the shared store. */
export const CODELAB_RUNS_BUCKET = 'codelabRuns';

export interface ExerciseData {
  title: { en: string; vi: string };
  prompt: { en: string; vi: string };
  language: string;
  starterCode: string;
  difficulty: string;
  courseId?: string | null;
  lessonId?: string | null;
  tests: ExerciseTest[];
}

export const isStaff = (user: User | null) =>
  Boolean(user && (user.hasRole(Role.content_admin) || user.hasRole(Role.admin)));

/**
 * CodeLab: running code (for the projects area too), exercises and their judged submissions. A
 * record the caller may not see is simply not found.
 */
export class CodeLabService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ai: AiService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get runner(): CodeRunner {
    return codeRunnerOf(this.uow.deps);
  }

  /** One run, counted against the caller's runs a minute. */
  async run(caller: User, request: { language: string; code: string; stdin?: string | null }): Promise<RunResult> {
    await this.uow.deps.limits.consume(CODELAB_RUNS_BUCKET, `user:${caller.id}`);
    return this.runner.runCode({
      language: request.language as Language,
      code: request.code,
      stdin: request.stdin ?? undefined,
    });
  }

  // Exercises

  /**
   * A page of exercises, leaving out those of `closedCourseIds` (paid courses the caller has not
   * bought, as the paid-course rule decides), so that pages and counts are of what the caller sees.
   */
  async exercises(
    filter: { language?: string | null; courseId?: string | null },
    first: number,
    after: string | null | undefined,
    closedCourseIds: string[],
  ): Promise<Page<Exercise>> {
    const where: Record<string, unknown> = {};
    if (filter.language) where.language = filter.language;
    if (filter.courseId) where.courseId = filter.courseId;
    // Beside the cursor's own $or: both hold.
    if (closedCourseIds.length) where.$and = [{ $or: [{ courseId: null }, { courseId: { $nin: closedCourseIds } }] }];
    const rows = await this.em.find(Exercise, { ...where, ...afterCursor(after) } as FilterQuery<Exercise>, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: first + 1,
    });
    return toPage(rows, first, after, () => this.em.count(Exercise, where));
  }

  /** The courses that exercises belong to. */
  async exerciseCourseIds(): Promise<string[]> {
    const rows = await this.uow.query<{ course_id: string }>(
      'select distinct course_id from codelab_exercises where course_id is not null',
    );
    return rows.map((row) => row.course_id);
  }

  async exercise(id: string): Promise<Exercise> {
    const exercise = isId(id) ? await this.em.findOne(Exercise, { id }) : null;
    if (!exercise) throw exerciseNotFound();
    return exercise;
  }

  /** The exercises among these ids, as `exercise` reads one (the graph's `nodes`). */
  exercisesByIds(ids: string[]): Promise<Exercise[]> {
    return this.em.find(Exercise, { id: { $in: ids.filter(isId) } });
  }

  async createExercise(data: ExerciseData): Promise<Exercise> {
    const exercise = this.em.create(Exercise, this.exerciseFields(data));
    await this.em.flush();
    return exercise;
  }

  async updateExercise(id: string, data: ExerciseData): Promise<Exercise> {
    const exercise = await this.exercise(id);
    this.em.assign(exercise, this.exerciseFields(data));
    await this.em.flush();
    return exercise;
  }

  private exerciseFields(data: ExerciseData) {
    return {
      title: data.title,
      prompt: data.prompt,
      language: data.language as Language,
      starterCode: data.starterCode,
      difficulty: data.difficulty as Difficulty,
      courseId: data.courseId ?? null,
      lessonId: data.lessonId ?? null,
      tests: data.tests.map((t) => ({
        name: t.name,
        hidden: Boolean(t.hidden),
        input: t.input ?? '',
        expected: t.expected,
        call: t.call ?? null,
      })),
    };
  }

  // Submissions

  /**
   * Queued now, judged by a job, and its verdict released by another at `releaseAt`; the caller
   * follows it with submissionUpdated or by polling.
   */
  async submit(caller: User, exerciseId: string, code: string): Promise<Submission> {
    const exercise = await this.exercise(exerciseId);
    if (Buffer.byteLength(code) > 64 * 1024) throw solutionTooLarge();
    const createdAt = new Date();
    const releaseAt = new Date(createdAt.getTime() + verdictDelayMs(this.uow.deps.config, exercise.tests.length));
    // The submission and its jobs are one commit: no submission waits for a job never queued.
    return this.uow.transaction(async (em) => {
      const submission = em.create(Submission, { exercise, user: caller.id, code, createdAt, releaseAt });
      await em.flush();
      const payload = { submissionId: submission.id } satisfies JudgeJob;
      await this.uow.enqueue({ kind: 'job', name: JUDGE_JOB, payload }, { kind: 'job', name: RELEASE_JOB, payload });
      return submission;
    });
  }

  /** The caller's own submission; anyone else's is not found. */
  async submission(caller: User, id: string): Promise<Submission> {
    const submission = isId(id) ? await this.em.findOne(Submission, { id, user: caller.id }) : null;
    if (!submission) throw submissionNotFound();
    return submission;
  }

  /** The caller's submissions among these ids, as `submission` reads one. */
  submissionsByIds(caller: User, ids: string[]): Promise<Submission[]> {
    return this.em.find(Submission, { id: { $in: ids.filter(isId) }, user: caller.id });
  }

  async mySubmissions(caller: User, first: number, after?: string | null): Promise<Page<Submission>> {
    const rows = await this.em.find(
      Submission,
      { user: caller.id, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(Submission, { user: caller.id }));
  }

  /**
   * The judge job: the verdict is stored for the release job to show, and nothing else happens
   * now, neither a push to the subscription nor the learner's progress: either would tell when
   * judging ended.
   */
  async judgeSubmission(submissionId: string): Promise<void> {
    const submission = await this.em.findOne(Submission, { id: submissionId }, { populate: ['exercise'] });
    if (!submission || submission.verdict) return;
    const exercise = submission.exercise;
    const judgement = await judge(this.runner, exercise.language, submission.code, exercise.tests);
    await this.em.nativeUpdate(
      Submission,
      { id: submission.id, verdict: null },
      { verdict: judgement.verdict, score: judgement.score, results: judgement.results },
    );
  }

  /**
   * The release job: at `releaseAt` the verdict is shown, pushed to the owner's subscription and
   * heard by the learner's progress, in one commit, with `finishedAt` the moment it was due. Answers
   * when to come back: at `releaseAt` on the job's first run (just after the submission), and, when
   * judging has not ended by then, at the next of the release moments. Released once, however often
   * it runs.
   */
  async releaseVerdict(submissionId: string): Promise<Date | null> {
    const submission = await this.em.findOne(Submission, { id: submissionId }, { populate: ['exercise'] });
    if (!submission || submission.status === 'completed') return null;
    const now = Date.now();
    if (now < submission.releaseAt.getTime()) return submission.releaseAt;
    const { due, next } = releaseMoments(submission.createdAt, submission.releaseAt, now);
    if (!submission.verdict) return new Date(next);
    const exercise = submission.exercise;
    await this.uow.transaction(async (em) => {
      const released = await em.nativeUpdate(
        Submission,
        { id: submission.id, status: { $ne: 'completed' } },
        { status: 'completed', finishedAt: new Date(due) },
      );
      if (!released) return;
      await this.uow.raise({
        type: 'exerciseJudged',
        learnerId: submission.user.id,
        exerciseId: exercise.id,
        courseId: exercise.courseId,
        lessonId: exercise.lessonId,
        score: submission.score,
        accepted: submission.verdict === 'accepted',
      });
      this.uow.publish(SUBMISSION_UPDATED, submission.id, { submissionId: submission.id });
    });
    return null;
  }

  /**
   * A hint from the AI tutor about the caller's submission, asked through the AI service (its
   * quota; the rules gave the consent and the guardian's switch). Hidden tests stay hidden: only
   * the visible tests' messages go along.
   */
  async hint(
    caller: User,
    submissionId: string,
    requestId: string,
  ): Promise<{ submissionId: string; hint: string; conversationId: string }> {
    const submission = await this.submission(caller, submissionId);
    const exercise = await this.em.findOneOrFail(Exercise, { id: submission.exercise.id });
    // A verdict not yet released is not the learner's to know, nor the tutor's to hint at.
    const released = submission.status === 'completed';
    const failing = released
      ? submission.results.filter((r) => !r.passed && !r.hidden).map((r) => `- ${r.name}: ${r.message ?? 'failed'}`)
      : [];
    const parts = [
      `I am solving this ${exercise.language} exercise: ${exercise.prompt.en}`,
      released && submission.verdict ? `The judge said: ${submission.verdict}.` : '',
      failing.length ? `Failing tests:\n${failing.join('\n')}` : '',
      'Give me one short hint, not the solution.',
      `My code:\n${submission.code}`,
    ];
    const message = parts.filter(Boolean).join('\n\n').slice(0, this.uow.deps.config.AI_MESSAGE_MAX_LENGTH);
    const reply = await this.ai.chat(caller, { message }, requestId);
    return { submissionId, hint: reply.reply, conversationId: reply.conversationId };
  }
}
