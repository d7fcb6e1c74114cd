import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ageOn, Role, User } from '../auth';
import type { AiService } from '../ai';
import type { CertificatesService } from '../certificates';
import { ConsentType, type ConsentService } from '../consent';
import type { GuardianService } from '../guardian';
import type { Deps } from '../kernel/deps';
import { perProcess } from '../kernel/deps';
import { conflict, forbidden, notFound, validationFailed } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { type Difficulty, Exercise, type ExerciseTest, Portfolio, Project, type ProjectFile, Submission, type Visibility } from './codelab.entity';
import { judge } from './codelab.judge';
import { CodeRunner, codeRunnerSettings, type Language, type RunResult } from './sandbox';

export const SUBMISSION_UPDATED = 'CODELAB_SUBMISSION_UPDATED';
export const JUDGE_JOB = 'codelab-judge';
export interface JudgeJob {
  submissionId: string;
}

export const MAX_PROJECT_FILES = 50;
export const MAX_PROJECT_BYTES = 256 * 1024;

/** The interpreters, one pool per process; started at boot unless CODELAB_PREWARM=false. */
export const codeRunnerOf = perProcess((deps: Deps) => new CodeRunner({ ...codeRunnerSettings(deps.config), logger: deps.log }));

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

export interface ProjectData {
  title: string;
  description: string;
  language: string;
  files: ProjectFile[];
  visibility: string;
}

export interface PortfolioData {
  handle: string;
  headline: string;
  bio: string;
  projectIds: string[];
  certificateIds: string[];
  visibility: string;
}

export const isStaff = (user: User | null) => Boolean(user && (user.hasRole(Role.content_admin) || user.hasRole(Role.admin)));
const ADULT_AGE = 18;
const isMinor = (user: User) => user.birthDate !== null && ageOn(user.birthDate) < ADULT_AGE;

/**
 * CodeLab: running code, exercises and their judged submissions, projects and portfolios. A
 * record the caller may not see is simply not found.
 */
export class CodeLabService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly consent: ConsentService,
    private readonly guardian: GuardianService,
    private readonly certificates: CertificatesService,
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
    return this.runner.runCode({ language: request.language as Language, code: request.code, stdin: request.stdin ?? undefined });
  }

  // Exercises

  async exercises(filter: { language?: string | null; courseId?: string | null }, first: number, after?: string | null): Promise<Page<Exercise>> {
    const where: Record<string, unknown> = {};
    if (filter.language) where.language = filter.language;
    if (filter.courseId) where.courseId = filter.courseId;
    const rows = await this.em.find(Exercise, { ...where, ...afterCursor(after) }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return toPage(rows, first, after, () => this.em.count(Exercise, where));
  }

  async exercise(id: string): Promise<Exercise> {
    const exercise = isId(id) ? await this.em.findOne(Exercise, { id }) : null;
    if (!exercise) throw notFound('exercise');
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
      tests: data.tests.map((t) => ({ name: t.name, hidden: Boolean(t.hidden), input: t.input ?? '', expected: t.expected, call: t.call ?? null })),
    };
  }

  // Submissions

  /** Queued now, judged by a job; the caller follows it with submissionUpdated or by polling. */
  async submit(caller: User, exerciseId: string, code: string): Promise<Submission> {
    const exercise = await this.exercise(exerciseId);
    if (Buffer.byteLength(code) > 64 * 1024) throw validationFailed([{ field: 'code', message: 'must be at most 64 KiB' }]);
    // The submission and its judge job are one commit: no submission waits for a job never queued.
    return this.uow.transaction(async (em) => {
      const submission = em.create(Submission, { exercise, user: caller.id, code });
      await em.flush();
      await this.uow.enqueue({ kind: 'job', name: JUDGE_JOB, payload: { submissionId: submission.id } satisfies JudgeJob });
      return submission;
    });
  }

  /** The caller's own submission; anyone else's is not found. */
  async submission(caller: User, id: string): Promise<Submission> {
    const submission = isId(id) ? await this.em.findOne(Submission, { id, user: caller.id }) : null;
    if (!submission) throw notFound('submission');
    return submission;
  }

  /** The caller's submissions among these ids, as `submission` reads one. */
  submissionsByIds(caller: User, ids: string[]): Promise<Submission[]> {
    return this.em.find(Submission, { id: { $in: ids.filter(isId) }, user: caller.id });
  }

  async mySubmissions(caller: User, first: number, after?: string | null): Promise<Page<Submission>> {
    const rows = await this.em.find(Submission, { user: caller.id, ...afterCursor(after) }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return toPage(rows, first, after, () => this.em.count(Submission, { user: caller.id }));
  }

  /** The judge job: running, then the verdict, each step published to the owner's subscription. */
  async judgeSubmission(submissionId: string): Promise<void> {
    const submission = await this.em.findOne(Submission, { id: submissionId }, { populate: ['exercise'] });
    if (!submission || submission.status === 'completed') return;
    submission.status = 'running';
    await this.em.flush();
    this.changed(submission.id);
    const exercise = submission.exercise;
    const judgement = await judge(this.runner, exercise.language, submission.code, exercise.tests);
    // The verdict and the learner's progress hearing of it (the progress area's reaction) are one commit.
    await this.uow.transaction(async (em) => {
      await em.nativeUpdate(Submission, { id: submission.id }, { status: 'completed', verdict: judgement.verdict, score: judgement.score, results: judgement.results, finishedAt: new Date() });
      await this.uow.raise({
        type: 'exerciseJudged',
        learnerId: submission.user.id,
        exerciseId: exercise.id,
        courseId: exercise.courseId,
        lessonId: exercise.lessonId,
        score: judgement.score,
        accepted: judgement.verdict === 'accepted',
      });
    });
    this.changed(submission.id);
  }

  /**
   * A hint from the AI tutor about the caller's submission, asked through the AI service (its
   * quota; the rules gave the consent and the guardian's switch). Hidden tests stay hidden: only
   * the visible tests' messages go along.
   */
  async hint(caller: User, submissionId: string, requestId: string): Promise<{ submissionId: string; hint: string; conversationId: string }> {
    const submission = await this.submission(caller, submissionId);
    const exercise = await this.em.findOneOrFail(Exercise, { id: submission.exercise.id });
    const failing = submission.results.filter((r) => !r.passed && !r.hidden).map((r) => `- ${r.name}: ${r.message ?? 'failed'}`);
    const parts = [
      `I am solving this ${exercise.language} exercise: ${exercise.prompt.en}`,
      submission.verdict ? `The judge said: ${submission.verdict}.` : '',
      failing.length ? `Failing tests:\n${failing.join('\n')}` : '',
      'Give me one short hint, not the solution.',
      `My code:\n${submission.code}`,
    ];
    const message = parts.filter(Boolean).join('\n\n').slice(0, this.uow.deps.config.AI_MESSAGE_MAX_LENGTH);
    const reply = await this.ai.chat(caller, { message }, requestId);
    return { submissionId, hint: reply.reply, conversationId: reply.conversationId };
  }

  private changed(submissionId: string): void {
    this.uow.publish(SUBMISSION_UPDATED, submissionId, { submissionId });
  }

  // Projects

  async createProject(caller: User, data: ProjectData): Promise<Project> {
    this.checkFiles(data.files);
    await this.checkVisibility(caller, data.visibility);
    const project = this.em.create(Project, {
      owner: caller.id,
      title: data.title,
      description: data.description,
      language: data.language as Language,
      files: data.files.map(({ path, content }) => ({ path, content })),
      visibility: data.visibility as Visibility,
    });
    await this.em.flush();
    return project;
  }

  async myProjects(caller: User, first: number, after?: string | null): Promise<Page<Project>> {
    const rows = await this.em.find(Project, { owner: caller.id, ...afterCursor(after) }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return toPage(rows, first, after, () => this.em.count(Project, { owner: caller.id }));
  }

  /** The owner, the owner's active guardians, and anyone when it is unlisted or public. */
  async project(viewer: User | null, id: string): Promise<Project> {
    const project = isId(id) ? await this.em.findOne(Project, { id }) : null;
    if (!project || !(await this.maySee(viewer, project))) throw notFound('project');
    return project;
  }

  /**
   * The projects among these ids the viewer may see, as `project` reads one: one read, and what
   * decides for another's project (may the owner share, is the viewer their guardian) asked once
   * per owner however many of their projects are asked for.
   */
  async projectsByIds(viewer: User | null, ids: string[]): Promise<Project[]> {
    const rows = await this.em.find(Project, { id: { $in: ids.filter(isId) } });
    const asked = new Map<string, Promise<boolean>>();
    const once = (key: string, read: () => Promise<boolean>) => asked.get(key) ?? asked.set(key, read()).get(key)!;
    const seen = await Promise.all(rows.map((project) => this.maySee(viewer, project, once)));
    return rows.filter((_project, i) => seen[i]);
  }

  private async maySee(viewer: User | null, project: Project, once = (_key: string, read: () => Promise<boolean>) => read()): Promise<boolean> {
    const owner = project.owner.id;
    if (viewer && owner === viewer.id) return true;
    if (project.visibility !== 'private' && (await once(`public:${owner}`, () => this.publicAllowed(owner)))) return true;
    return Boolean(viewer && (await once(`guardian:${owner}`, () => this.guardian.isActiveGuardianOf(viewer.id, owner))));
  }

  /** Someone else's project the caller may see is theirs to read, not to change. */
  private async ownProject(caller: User, id: string): Promise<Project> {
    const project = await this.project(caller, id);
    if (project.owner.id !== caller.id) throw forbidden('Only the owner may change this project.');
    return project;
  }

  async updateProject(caller: User, id: string, data: ProjectData): Promise<Project> {
    const project = await this.ownProject(caller, id);
    this.checkFiles(data.files);
    await this.checkVisibility(caller, data.visibility);
    this.em.assign(project, {
      title: data.title,
      description: data.description,
      language: data.language as Language,
      files: data.files.map(({ path, content }) => ({ path, content })),
      visibility: data.visibility as Visibility,
    });
    await this.em.flush();
    return project;
  }

  async deleteProject(caller: User, id: string): Promise<boolean> {
    const project = await this.ownProject(caller, id);
    await this.em.removeAndFlush(project);
    return true;
  }

  /** Runs the project's entry file: main.py, main.js or index.js, else its first file. */
  async runProject(caller: User, id: string, stdin?: string | null): Promise<RunResult> {
    const project = await this.project(caller, id);
    const entry = project.files.find((f) => ['main.py', 'main.js', 'index.js'].includes(f.path)) ?? project.files[0];
    return this.run(caller, { language: project.language, code: entry.content, stdin });
  }

  /** A private copy for the caller, remembering where it came from. */
  async remixProject(caller: User, id: string): Promise<Project> {
    const original = await this.project(caller, id);
    const copy = this.em.create(Project, {
      owner: caller.id,
      title: original.title,
      description: original.description,
      language: original.language,
      files: original.files.map((f) => ({ ...f })),
      visibility: 'private',
      remixOf: original.id,
    });
    await this.em.flush();
    return copy;
  }

  private checkFiles(files: ProjectFile[]): void {
    if (files.length > MAX_PROJECT_FILES) throw validationFailed([{ field: 'files', message: `at most ${MAX_PROJECT_FILES} files` }]);
    const paths = new Set(files.map((f) => f.path));
    if (paths.size !== files.length) throw validationFailed([{ field: 'files', message: 'two files have the same path' }]);
    const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.path) + Buffer.byteLength(f.content), 0);
    if (bytes > MAX_PROJECT_BYTES) throw validationFailed([{ field: 'files', message: 'at most 256 KiB a project' }]);
  }

  /** Under 18, public needs a guardian's progress_sharing consent (DESIGN.md 4.8). */
  private async checkVisibility(owner: User, visibility: string): Promise<void> {
    if (visibility !== 'public' || !isMinor(owner)) return;
    await this.consent.assertConsent(owner.id, ConsentType.progress_sharing);
  }

  /** Whether the owner's public things may show now: adults always, minors while the consent stands. */
  private async publicAllowed(ownerId: string): Promise<boolean> {
    const owner = await this.em.findOne(User, { id: ownerId });
    if (!owner || !isMinor(owner)) return Boolean(owner);
    return this.consent.hasConsent(owner.id, ConsentType.progress_sharing);
  }

  /** The progress_sharing consent of a minor was revoked: what they made public is private again. */
  async consentRevoked(subjectId: string, type: string): Promise<void> {
    if (type !== ConsentType.progress_sharing) return;
    await this.uow.transaction(async (em) => {
      await em.nativeUpdate(Project, { owner: subjectId, visibility: 'public' }, { visibility: 'private' });
      await em.nativeUpdate(Portfolio, { user: subjectId, visibility: 'public' }, { visibility: 'private' });
    });
  }

  // Portfolio

  async myPortfolio(caller: User): Promise<Portfolio | null> {
    return this.em.findOne(Portfolio, { user: caller.id });
  }

  async updatePortfolio(caller: User, data: PortfolioData): Promise<Portfolio> {
    await this.checkVisibility(caller, data.visibility);
    const projects = data.projectIds.length ? await this.em.find(Project, { id: { $in: data.projectIds }, owner: caller.id }) : [];
    if (projects.length !== new Set(data.projectIds).size) throw validationFailed([{ field: 'projectIds', message: 'must be your own projects' }]);
    const certificates = data.certificateIds.length ? await this.certificates.listOf([caller.id]) : [];
    const own = new Set(certificates.map((c) => c.id));
    if (data.certificateIds.some((id) => !own.has(id))) throw validationFailed([{ field: 'certificateIds', message: 'must be your own certificates' }]);
    let portfolio = await this.myPortfolio(caller);
    const fields = {
      handle: data.handle,
      headline: data.headline,
      bio: data.bio,
      projectIds: [...new Set(data.projectIds)],
      certificateIds: [...new Set(data.certificateIds)],
      visibility: data.visibility as 'private' | 'public',
    };
    if (portfolio) this.em.assign(portfolio, fields);
    else portfolio = this.em.create(Portfolio, { user: caller.id, ...fields });
    try {
      await this.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw conflict('This handle is taken.');
      throw error;
    }
    return portfolio;
  }

  /** The public page: only while public (and, under 18, while the consent stands); only public projects. */
  async publicPortfolio(handle: string) {
    const portfolio = /^[a-z0-9_-]{3,30}$/.test(handle) ? await this.em.findOne(Portfolio, { handle }, { populate: ['user'] }) : null;
    if (!portfolio || portfolio.visibility !== 'public' || !(await this.publicAllowed(portfolio.user.id))) throw notFound('portfolio');
    const projects = portfolio.projectIds.length
      ? await this.em.find(Project, { id: { $in: portfolio.projectIds }, owner: portfolio.user.id, visibility: 'public' }, { orderBy: { createdAt: 'desc' } })
      : [];
    const chosen = new Set(portfolio.certificateIds);
    const certificates = chosen.size ? (await this.certificates.listOf([portfolio.user.id])).filter((c) => chosen.has(c.id)) : [];
    return { portfolio, displayName: portfolio.user.displayName, projects, certificates };
  }
}
