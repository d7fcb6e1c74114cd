import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { CourseLevel, NewLesson } from '../courses';
import type { CoursesService } from '../courses';
import type { AuditService } from '../audit';
import type { Deps } from '../kernel/deps';
import type { FactoryModels } from './providers';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { GenerationPipeline, STAGE_JOB, type StageJob, stageKey } from './factory.pipeline';
import {
  CourseGeneration,
  GenerationLesson,
  GenerationStage,
  GenerationStatus,
  STAGE_ORDER,
  StageName,
  StageStatus,
} from './generation.entity';
import type { Outline } from './providers/model';
import {
  generationAlreadyApproved,
  generationCannotBecome,
  generationNotAwaitingApproval,
  noLessonFlagged,
  tooManyActiveGenerations,
  unknownGeneration,
} from './factory.errors';

/** Events carry the generation's id; subscribers read the generation as it is now. */
export const GENERATION_STATUS_CHANGED = 'GENERATION_STATUS_CHANGED';
export interface GenerationChangedEvent {
  generationId: string;
}

export interface GenerationRequest {
  topic: string;
  level: string;
  ageRange: string;
  lessonCount: number;
}

/** A course's factory: generation requests, their pipeline, and the admin's decision. */
export class FactoryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly models: FactoryModels,
    /** Joins our transaction, so approval publishes the course in the same commit. */
    private readonly courses: CoursesService,
    /** Decisions on generations are privileged actions: each is audited in its own transaction. */
    private readonly audit: AuditService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get deps(): Deps {
    return this.uow.deps;
  }

  async start(request: GenerationRequest, requesterId: string): Promise<CourseGeneration> {
    // The shape was checked by GenerateCourseInput.
    const { level, ageRange, lessonCount } = request;
    const topic = request.topic.trim();
    const [minAge, maxAge] = ageRange.split('-').map(Number);
    const limit = this.deps.config.FACTORY_MAX_ACTIVE_PER_REQUESTER;
    const generation = await this.uow.transaction(async (em) => {
      // One requester's starts take turns, so concurrent ones count each other.
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`factory-requester:${requesterId}`]);
      const active = await em.count(CourseGeneration, {
        requestedBy: requesterId,
        status: { $in: [GenerationStatus.queued, GenerationStatus.running] },
      });
      if (active >= limit) throw tooManyActiveGenerations(limit);
      const generation = em.create(CourseGeneration, {
        topic,
        level,
        minAge,
        maxAge,
        lessonCount,
        requestedBy: requesterId,
      });
      STAGE_ORDER.forEach((name, index) => em.create(GenerationStage, { generation, name, position: index + 1 }));
      return generation;
    });
    return this.schedule(generation, StageName.research);
  }

  async list(first: number, after?: string | null): Promise<Page<CourseGeneration>> {
    const rows = await this.em.find(CourseGeneration, afterCursor(after), {
      populate: ['stages'],
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit: first + 1,
    });
    return toPage(rows, first, after, () => this.em.count(CourseGeneration, {}));
  }

  async find(id: string): Promise<CourseGeneration> {
    const generation = isId(id)
      ? await this.em.findOne(CourseGeneration, { id }, { populate: ['stages'], refresh: true })
      : null;
    if (!generation) throw unknownGeneration();
    return generation;
  }

  /** The generations among these ids, as `find` reads one (the graph's `nodes`; staff only, by the rule of `factoryGeneration`). */
  byIds(ids: string[]): Promise<CourseGeneration[]> {
    return this.em.find(CourseGeneration, { id: { $in: ids.filter(isId) } }, { populate: ['stages'], refresh: true });
  }

  lessons(generationId: string): Promise<GenerationLesson[]> {
    return this.uow.children(
      'factory.lessons',
      generationId,
      (generations) =>
        this.em.find(
          GenerationLesson,
          { generation: { $in: generations } },
          { orderBy: { position: 'asc' }, refresh: true },
        ),
      (lesson) => lesson.generation.id,
    );
  }

  /**
   * Publishes the course and its lessons in the commit that marks the generation approved; the
   * row lock makes a second approval wait, then answer 409 conflict (docs/errors.md: approve twice).
   */
  async approve(id: string, approverId: string): Promise<CourseGeneration> {
    await this.uow.transaction(async (em) => {
      const generation = await this.locked(em, id);
      if (generation.status === GenerationStatus.approved) {
        throw generationAlreadyApproved(generation.courseId);
      }
      if (generation.status !== GenerationStatus.awaiting_approval) {
        throw generationNotAwaitingApproval(generation.status);
      }
      const course = await this.courses.createCourse(await this.courseOf(em, generation), generation.requestedBy.id);
      em.assign(generation, {
        status: GenerationStatus.approved,
        courseId: course.id,
        decidedBy: approverId,
        decidedAt: new Date(),
      });
      await this.audit.record({
        actor: approverId,
        action: 'factory.generation_approved',
        target: { type: 'generation', id: generation.id },
        data: { courseId: course.id },
      });
      await this.tellRequester(generation);
    });
    this.changed(id);
    return this.find(id);
  }

  async reject(id: string, deciderId: string): Promise<CourseGeneration> {
    return this.transition(
      id,
      [GenerationStatus.awaiting_approval, GenerationStatus.flagged, GenerationStatus.failed],
      GenerationStatus.rejected,
      async (generation, em) => {
        em.assign(generation, { decidedBy: deciderId });
        generation.decidedAt = new Date();
        await this.audit.record({
          actor: deciderId,
          action: 'factory.generation_rejected',
          target: { type: 'generation', id: generation.id },
        });
      },
    );
  }

  /** A failed generation goes on from the stage that failed; what earlier stages made is kept. */
  async retry(id: string, actorId: string | null = null): Promise<CourseGeneration> {
    const generation = await this.transition(
      id,
      [GenerationStatus.failed],
      GenerationStatus.queued,
      async (generation, em) => {
        generation.round += 1;
        generation.error = null;
        const failed = await em.findOneOrFail(GenerationStage, { generation, status: StageStatus.failed });
        Object.assign(failed, { status: StageStatus.pending, attempts: 0, error: null, finishedAt: null });
        generation.currentStage = failed.name;
        await this.audit.record({
          actor: actorId,
          action: 'factory.generation_retried',
          target: { type: 'generation', id: generation.id },
          data: { stage: failed.name, round: generation.round },
        });
      },
    );
    return this.schedule(generation, generation.currentStage!);
  }

  /** A flagged generation writes its flagged lessons again, then quizzes and checks them again. */
  async regenerateFlagged(id: string): Promise<CourseGeneration> {
    const generation = await this.transition(
      id,
      [GenerationStatus.flagged],
      GenerationStatus.queued,
      async (generation, em) => {
        const flagged = await em.find(GenerationLesson, { generation, flagged: true });
        if (!flagged.length) throw noLessonFlagged();
        for (const lesson of flagged)
          Object.assign(lesson, { content: null, quiz: null, flagged: false, revision: lesson.revision + 1 });
        const again = await em.find(GenerationStage, {
          generation,
          name: { $in: [StageName.content, StageName.quiz, StageName.safety] },
        });
        for (const stage of again)
          Object.assign(stage, {
            status: StageStatus.pending,
            attempts: 0,
            error: null,
            output: null,
            startedAt: null,
            finishedAt: null,
            providerMs: 0,
          });
        generation.round += 1;
        generation.currentStage = StageName.content;
      },
    );
    return this.schedule(generation, StageName.content);
  }

  /** The job of a stage (see factory.jobs). */
  runStage(job: StageJob): Promise<void> {
    return new GenerationPipeline(this.em, {
      models: this.models,
      attempts: this.deps.config.FACTORY_STAGE_ATTEMPTS,
      log: this.deps.log,
      changed: (generationId) => this.changed(generationId),
      enqueue: (generation, stage) => this.enqueue(generation, stage),
    }).run(job);
  }

  private async transition(
    id: string,
    from: GenerationStatus[],
    to: GenerationStatus,
    change: (generation: CourseGeneration, em: EntityManager) => void | Promise<void>,
  ): Promise<CourseGeneration> {
    await this.uow.transaction(async (em) => {
      const generation = await this.locked(em, id);
      if (!from.includes(generation.status)) throw generationCannotBecome(generation.status, to);
      generation.status = to;
      await change(generation, em);
    });
    this.changed(id);
    return this.find(id);
  }

  private async locked(em: EntityManager, id: string): Promise<CourseGeneration> {
    const generation = isId(id)
      ? await em.findOne(CourseGeneration, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!generation) throw unknownGeneration();
    return generation;
  }

  private async courseOf(em: EntityManager, generation: CourseGeneration) {
    const outline = (await em.findOneOrFail(GenerationStage, { generation, name: StageName.outline }))
      .output as unknown as Outline;
    const lessons = await em.find(GenerationLesson, { generation }, { orderBy: { position: 'asc' } });
    return {
      title: outline.title,
      description: outline.description,
      level: generation.level as CourseLevel,
      minAge: generation.minAge,
      maxAge: generation.maxAge,
      language: 'vi',
      published: true,
      // Approval follows the content stage, which wrote every lesson: none is without content here.
      lessons: lessons as NewLesson[],
    };
  }

  /** Announced in the approval's transaction: the notifications area delivers it after commit, once. */
  private async tellRequester(generation: CourseGeneration): Promise<void> {
    const { topic, courseId, id } = generation;
    await this.uow.raise({
      type: 'notification.requested',
      recipients: [generation.requestedBy.id],
      notificationType: 'system',
      message: {
        title: { en: 'Your course is published', vi: 'Khóa học của bạn đã được xuất bản' },
        body: {
          en: `The course generated on "${topic}" was approved and is now in the catalog.`,
          vi: `Khóa học được tạo về "${topic}" đã được duyệt và có trong danh mục.`,
        },
        data: { generationId: id, courseId },
      },
    });
  }

  /** Queues a stage; a generation that cannot be queued fails with the reason, to be retried. */
  private async schedule(generation: CourseGeneration, stage: StageName): Promise<CourseGeneration> {
    try {
      await this.enqueue(generation, stage);
      return generation;
    } catch (error) {
      this.deps.log.error({ err: error, generationId: generation.id }, 'generation could not be queued');
      await this.em.nativeUpdate(
        CourseGeneration,
        { id: generation.id },
        { status: GenerationStatus.failed, error: `${stage}: could not be queued` },
      );
      await this.em.nativeUpdate(
        GenerationStage,
        { generation: generation.id, name: stage },
        { status: StageStatus.failed, error: 'could not be queued' },
      );
      this.changed(generation.id);
      return this.find(generation.id);
    }
  }

  /** One job per generation, round and stage, however many times a stage asks for its successor. */
  private async enqueue(generation: CourseGeneration, stage: StageName): Promise<void> {
    const key = stageKey(generation, stage);
    await this.deps.jobs.agenda
      .create<StageJob>(STAGE_JOB, { generationId: generation.id, round: generation.round, stage, key })
      .unique({ 'data.key': key }, { insertOnly: true })
      .schedule(new Date())
      .save();
  }

  private changed(generationId: string): void {
    this.uow.publish(GENERATION_STATUS_CHANGED, generationId, { generationId } satisfies GenerationChangedEvent);
  }
}
