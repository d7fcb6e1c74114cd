import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import {
  CourseGeneration,
  GenerationLesson,
  type GenerationStage,
  GenerationStatus,
  type SafetyFinding,
  STAGE_ORDER,
  StageName,
  StageStatus,
} from './generation.entity';
import type { FactoryModels } from './providers';
import { type CourseBrief, type Outline, ProviderError, type Research } from './providers/model';
import { classify, type LessonText, lessonTexts, localizedTexts } from './safety';

export const STAGE_JOB = 'factory.stage';

export interface StageJob {
  generationId: string;
  round: number;
  stage: StageName;
  /** generation:round:stage, what makes the job unique. */
  key: string;
}

export interface PipelineHooks {
  models: FactoryModels;
  attempts: number;
  log: Logger;
  /** Tells subscribers of every instance that the generation changed. */
  changed(generationId: string): void;
  enqueue(generation: CourseGeneration, stage: StageName): Promise<void>;
}

/** The share of the progress bar each stage fills; content and quiz fill theirs lesson by lesson. */
const WEIGHT: Record<StageName, number> = { research: 10, outline: 10, content: 45, quiz: 25, safety: 10 };
const ACTIVE = new Set([GenerationStatus.queued, GenerationStatus.running]);

export function briefOf(generation: CourseGeneration): CourseBrief {
  return {
    topic: generation.topic,
    level: generation.level as CourseBrief['level'],
    minAge: generation.minAge,
    maxAge: generation.maxAge,
    lessonCount: generation.lessonCount,
  };
}

export const stageKey = (generation: CourseGeneration, stage: StageName) =>
  `${generation.id}:${generation.round}:${stage}`;

/**
 * Runs one stage of one generation. Whatever a stage produces is committed before the next
 * stage is queued, and lesson by lesson within the content and quiz stages, so a stage run again
 * after a crash starts from the first thing not yet stored, and nothing stored is made twice.
 */
export class GenerationPipeline {
  constructor(
    private readonly em: EntityManager,
    private readonly hooks: PipelineHooks,
  ) {}

  async run(job: StageJob): Promise<void> {
    const generation = await this.em.findOne(CourseGeneration, { id: job.generationId }, { populate: ['stages'] });
    // A job of an earlier round, or of a generation decided meanwhile, has nothing left to do.
    if (!generation || generation.round !== job.round || !ACTIVE.has(generation.status)) return;
    const stage = generation.stages.getItems().find((s) => s.name === job.stage)!;
    if (stage.status === StageStatus.done) return this.queueNext(generation, stage.name);
    if (stage.status === StageStatus.failed) return;

    stage.status = StageStatus.running;
    stage.attempts += 1;
    stage.startedAt ??= new Date();
    generation.status = GenerationStatus.running;
    generation.currentStage = stage.name;
    await this.save(generation);
    try {
      stage.output = await this.work(generation, stage);
      stage.status = StageStatus.done;
      stage.finishedAt = new Date();
      stage.error = null;
      generation.progress = progressOf(generation);
      if (stage.name === StageName.safety) this.finish(generation, stage);
      await this.save(generation);
      await this.queueNext(generation, stage.name);
    } catch (error) {
      await this.failAttempt(generation, stage, error);
    }
  }

  private async queueNext(generation: CourseGeneration, after: StageName): Promise<void> {
    const next = STAGE_ORDER[STAGE_ORDER.indexOf(after) + 1];
    if (next) await this.hooks.enqueue(generation, next);
  }

  /** Keeps the error; throws for Agenda to run the stage again after a backoff, unless attempts are spent. */
  private async failAttempt(generation: CourseGeneration, stage: GenerationStage, error: unknown): Promise<void> {
    if (!(error instanceof ProviderError))
      this.hooks.log.error({ err: error, generationId: generation.id, stage: stage.name }, 'generation stage failed');
    // Provider messages are ours to show; anything else may carry driver or SQL text.
    stage.error = error instanceof ProviderError ? error.message : 'Internal error while running the stage.';
    const spent = stage.attempts >= this.hooks.attempts;
    if (spent) {
      stage.status = StageStatus.failed;
      stage.finishedAt = new Date();
      generation.status = GenerationStatus.failed;
      generation.error = `${stage.name}: ${stage.error}`;
    }
    await this.save(generation);
    if (!spent) throw error;
  }

  private finish(generation: CourseGeneration, safety: GenerationStage): void {
    const flagged =
      (safety.output?.flaggedLessons as number[]).length > 0 || (safety.output?.courseFindings as unknown[]).length > 0;
    generation.status = flagged ? GenerationStatus.flagged : GenerationStatus.awaiting_approval;
    generation.currentStage = null;
    generation.progress = 100;
  }

  private async save(generation: CourseGeneration): Promise<void> {
    await this.em.flush();
    this.hooks.changed(generation.id);
  }

  private work(generation: CourseGeneration, stage: GenerationStage): Promise<Record<string, unknown>> {
    const brief = briefOf(generation);
    const output = <T>(name: StageName) => generation.stages.getItems().find((s) => s.name === name)!.output as T;
    const timed = async <T>(call: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await call();
      } finally {
        stage.providerMs += Math.round(performance.now() - started);
      }
    };
    const { byStage } = this.hooks.models;
    switch (stage.name) {
      case StageName.research:
        return timed(async () => ({ ...(await byStage.research.research(brief)) }));
      case StageName.outline:
        return this.outline(
          generation,
          brief,
          timed(() => byStage.outline.outline(brief, output<Research>(StageName.research))),
        );
      case StageName.content:
        return this.eachLesson(
          generation,
          (l) => l.content === null,
          async (lesson) => {
            const flaggedFor = lesson.revision > 0 ? lesson.findings : undefined;
            lesson.content = await timed(() =>
              byStage.content.lessonContent(brief, output<Research>(StageName.research), {
                ...plan(lesson),
                flaggedFor,
              }),
            );
            lesson.findings = [];
          },
        );
      case StageName.quiz:
        return this.eachLesson(
          generation,
          (l) => l.quiz === null,
          async (lesson) => {
            lesson.quiz = await timed(() => byStage.quiz.quiz(brief, { ...plan(lesson), content: lesson.content! }));
          },
        );
      case StageName.safety:
        return this.safety(generation, output<Outline>(StageName.outline), timed);
    }
  }

  /** The outline and the lessons it plans, in one commit with the stage's end. */
  private async outline(
    generation: CourseGeneration,
    brief: CourseBrief,
    made: Promise<Outline>,
  ): Promise<Record<string, unknown>> {
    const outline = await made;
    if (outline.lessons.length !== brief.lessonCount)
      throw new ProviderError(`the outline has ${outline.lessons.length} lessons, not ${brief.lessonCount}`);
    outline.lessons.forEach((plan, index) =>
      this.em.create(GenerationLesson, {
        generation,
        position: index + 1,
        title: plan.title,
        objectives: plan.objectives,
      }),
    );
    return { ...outline };
  }

  /** Does one lesson at a time, committing each, so a stage run again resumes at the next lesson. */
  private async eachLesson(
    generation: CourseGeneration,
    todo: (lesson: GenerationLesson) => boolean,
    write: (lesson: GenerationLesson) => Promise<void>,
  ): Promise<Record<string, unknown>> {
    const lessons = await this.em.find(GenerationLesson, { generation }, { orderBy: { position: 'asc' } });
    let written = 0;
    for (const lesson of lessons.filter(todo)) {
      await write(lesson);
      written += 1;
      generation.progress = progressOf(generation, lessons.filter((l) => !todo(l)).length / lessons.length);
      await this.save(generation);
    }
    return { lessons: lessons.length, written };
  }

  private async safety(
    generation: CourseGeneration,
    outline: Outline,
    timed: <T>(call: () => Promise<T>) => Promise<T>,
  ): Promise<Record<string, unknown>> {
    const { moderation } = this.hooks.models;
    const lessons = await this.em.find(GenerationLesson, { generation }, { orderBy: { position: 'asc' } });
    const check = async (texts: LessonText[]): Promise<SafetyFinding[]> => [
      ...classify(texts, generation.minAge),
      ...(moderation ? await timed(() => moderation.check(texts)) : []),
    ];
    const courseFindings = await check([
      ...localizedTexts('course.title', outline.title),
      ...localizedTexts('course.description', outline.description),
    ]);
    for (const lesson of lessons) {
      lesson.findings = await check(lessonTexts(lesson));
      lesson.flagged = lesson.findings.length > 0;
    }
    return {
      checkedBy: moderation ? ['builtin', 'moderation'] : ['builtin'],
      flaggedLessons: lessons.filter((l) => l.flagged).map((l) => l.position),
      findings: lessons.reduce((sum, l) => sum + l.findings.length, 0),
      courseFindings,
    };
  }
}

function plan(lesson: GenerationLesson) {
  return { position: lesson.position, title: lesson.title, objectives: lesson.objectives };
}

/** Done stages count whole; the running one counts by the share of its lessons done. */
function progressOf(generation: CourseGeneration, runningShare = 0): number {
  let progress = 0;
  for (const stage of generation.stages.getItems()) {
    if (stage.status === StageStatus.done) progress += WEIGHT[stage.name];
    else if (stage.status === StageStatus.running) progress += WEIGHT[stage.name] * runningShare;
  }
  return Math.min(100, Math.round(progress));
}
