import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';
import { CourseLevel, LessonBody } from '../courses';
import type { SafetyFinding } from '../factory';
import type { Localized } from '../kernel/localized';

export enum DraftStatus {
  draft = 'draft',
  in_review = 'in_review',
  rejected = 'rejected',
  published = 'published',
}

/** A course a creator writes by hand; approved by a content admin, it is published as a course. */
@Entity({ tableName: 'creator_courses' })
@Index({ properties: ['creator', 'createdAt'] })
@Index({ properties: ['status', 'updatedAt'] })
export class CreatorCourse {
  [OptionalProps]?:
    | 'status'
    | 'language'
    | 'findings'
    | 'reviewReason'
    | 'reviewedBy'
    | 'reviewedAt'
    | 'submittedAt'
    | 'courseId'
    | 'createdAt'
    | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  creator!: User;

  @Property({ type: 'jsonb' })
  title!: Localized;

  @Property({ type: 'jsonb' })
  description!: Localized;

  @Enum({ items: () => CourseLevel })
  level!: CourseLevel;

  @Property({ type: 'smallint' })
  minAge!: number;

  @Property({ type: 'smallint' })
  maxAge!: number;

  @Property({ type: 'text' })
  language: string = 'vi';

  @Enum({ items: () => DraftStatus })
  status: DraftStatus = DraftStatus.draft;

  /** What the safety check found at the last submission, for the reviewer. */
  @Property({ type: 'jsonb', default: "'[]'" })
  findings: SafetyFinding[] = [];

  @Property({ type: 'text', nullable: true })
  reviewReason: string | null = null;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  reviewedBy: User | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  reviewedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  submittedAt: Date | null = null;

  /** The published course, once approved. */
  @Property({ type: 'uuid', nullable: true })
  courseId: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

@Entity({ tableName: 'creator_lessons' })
@Unique({ properties: ['draft', 'position'] })
export class CreatorLesson extends LessonBody {
  [OptionalProps]?: 'quiz';

  @ManyToOne(() => CreatorCourse, { deleteRule: 'cascade' })
  draft!: CreatorCourse;
}

/** A message a creator sent to a course's learners (kept for the rate limit's and the record's sake). */
@Entity({ tableName: 'creator_messages' })
@Index({ properties: ['creator', 'createdAt'] })
export class CreatorMessage {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  creator!: User;

  @ManyToOne(() => CreatorCourse, { deleteRule: 'cascade' })
  draft!: CreatorCourse;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'integer' })
  recipients!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
