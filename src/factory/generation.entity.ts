import { randomUUID } from 'node:crypto';
import {
  Check,
  Collection,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OneToMany,
  OptionalProps,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import type { User } from '../auth';
import { LessonBody } from '../courses';
import type { Localized } from '../kernel/localized';

export enum GenerationStatus {
  queued = 'queued',
  running = 'running',
  awaiting_approval = 'awaiting_approval',
  flagged = 'flagged',
  failed = 'failed',
  approved = 'approved',
  rejected = 'rejected',
}

/** The five stages of the specification, in the order they run. */
export enum StageName {
  research = 'research',
  outline = 'outline',
  content = 'content',
  quiz = 'quiz',
  safety = 'safety',
}

export const STAGE_ORDER: StageName[] = [
  StageName.research,
  StageName.outline,
  StageName.content,
  StageName.quiz,
  StageName.safety,
];

export enum StageStatus {
  pending = 'pending',
  running = 'running',
  done = 'done',
  failed = 'failed',
}

export type SafetyCategory =
  'violence' | 'sexual' | 'self_harm' | 'hate' | 'personal_data' | 'external_link' | 'age_fit';

/** One thing the safety check found in a lesson. */
export interface SafetyFinding {
  category: SafetyCategory;
  /** builtin (our classifier) or moderation (the configured endpoint). */
  source: 'builtin' | 'moderation';
  /** Where: title.en, content.vi, quiz.en, ... */
  field: string;
  excerpt: string;
}

@Entity({ tableName: 'course_generations' })
@Index({ properties: ['createdAt', 'id'] })
@Check({ name: 'course_generations_progress_check', expression: '"progress" >= 0 and "progress" <= 100' })
export class CourseGeneration {
  [OptionalProps]?:
    | 'status'
    | 'currentStage'
    | 'progress'
    | 'round'
    | 'error'
    | 'courseId'
    | 'approvedBy'
    | 'approvedAt'
    | 'decidedBy'
    | 'decidedAt'
    | 'createdAt'
    | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  topic!: string;

  @Property({ type: 'text' })
  level!: string;

  @Property({ type: 'smallint' })
  minAge!: number;

  @Property({ type: 'smallint' })
  maxAge!: number;

  @Property({ type: 'smallint' })
  lessonCount!: number;

  @Enum({ items: () => GenerationStatus })
  status: GenerationStatus = GenerationStatus.queued;

  @Enum({ items: () => StageName, nullable: true })
  currentStage: StageName | null = null;

  @Property({ type: 'smallint' })
  progress: number = 0;

  /** Bumped by retry and regeneration, so the jobs of an earlier round cannot act again. */
  @Property({ type: 'integer' })
  round: number = 0;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @ManyToOne('User', { deleteRule: 'cascade' })
  requestedBy!: User;

  /** The approver or rejecter, and when. */
  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  decidedBy: User | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  decidedAt: Date | null = null;

  /** The published course, once approved. */
  @Property({ type: 'uuid', nullable: true, unique: true })
  courseId: string | null = null;

  @OneToMany(() => GenerationStage, (stage) => stage.generation, { orderBy: { position: 'asc' } })
  stages = new Collection<GenerationStage>(this);

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  /** As requested: `<min>-<max>`. */
  ageRange(): string {
    return `${this.minAge}-${this.maxAge}`;
  }
}

@Entity({ tableName: 'generation_stages' })
@Unique({ properties: ['generation', 'name'] })
export class GenerationStage {
  [OptionalProps]?: 'status' | 'attempts' | 'startedAt' | 'finishedAt' | 'error' | 'output' | 'providerMs';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => CourseGeneration, { deleteRule: 'cascade' })
  generation!: CourseGeneration;

  @Enum({ items: () => StageName })
  name!: StageName;

  @Property({ type: 'smallint' })
  position!: number;

  @Enum({ items: () => StageStatus })
  status: StageStatus = StageStatus.pending;

  @Property({ type: 'smallint' })
  attempts: number = 0;

  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  /** What the stage produced, stored before the next stage starts. */
  @Property({ type: 'jsonb', nullable: true })
  output: Record<string, unknown> | null = null;

  /** Time spent waiting on model providers, apart from the pipeline's own work. */
  @Property({ type: 'integer' })
  providerMs: number = 0;
}

/** A lesson as the pipeline builds it: outline, then content, then quiz, then safety findings. */
@Entity({ tableName: 'generation_lessons' })
@Unique({ properties: ['generation', 'position'] })
export class GenerationLesson extends LessonBody<Localized | null> {
  [OptionalProps]?: 'content' | 'quiz' | 'findings' | 'flagged' | 'revision';

  @ManyToOne(() => CourseGeneration, { deleteRule: 'cascade' })
  generation!: CourseGeneration;

  /** Null until the content stage wrote it. */
  @Property({ type: 'jsonb', nullable: true })
  override content: Localized | null = null;

  @Property({ type: 'jsonb', default: "'[]'" })
  findings: SafetyFinding[] = [];

  @Property({ type: 'boolean' })
  flagged: boolean = false;

  /** How many times the lesson was written again after being flagged. */
  @Property({ type: 'smallint' })
  revision: number = 0;
}
