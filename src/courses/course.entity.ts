import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';
import type { Localized } from '../kernel/localized';
import { LessonBody } from './lesson-body';

export enum CourseLevel {
  beginner = 'beginner',
  intermediate = 'intermediate',
  advanced = 'advanced',
}

@Entity({ tableName: 'courses' })
@Index({ properties: ['published', 'createdAt', 'id'] })
@Index({
  name: 'courses_catalog_index',
  expression: 'create index "courses_catalog_index" on "courses" ("created_at" desc, "id" desc) where "published"',
})
export class Course {
  [OptionalProps]?: 'passMark' | 'published' | 'createdBy' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

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

  /** The language the course teaches in (vi or en); its texts exist in both. */
  @Property({ type: 'text' })
  language!: string;

  /** The quiz average (0..100) a learner needs for the certificate. */
  @Property({ type: 'smallint' })
  passMark: number = 70;

  @Property({ type: 'boolean' })
  published: boolean = false;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

@Entity({ tableName: 'lessons' })
@Unique({ properties: ['course', 'position'] })
export class Lesson extends LessonBody {
  [OptionalProps]?: 'quiz';

  @ManyToOne(() => Course, { deleteRule: 'cascade' })
  course!: Course;
}

@Entity({ tableName: 'enrollments' })
@Unique({ properties: ['learner', 'course'] })
@Index({ properties: ['course'] })
export class Enrollment {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @ManyToOne(() => Course, { deleteRule: 'cascade' })
  course!: Course;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
