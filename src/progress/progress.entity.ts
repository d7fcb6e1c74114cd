import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';
import type { Course, Lesson } from '../courses';

/** A lesson a learner finished; finishing it again changes nothing. */
@Entity({ tableName: 'lesson_completions' })
@Unique({ properties: ['learner', 'lesson'] })
@Index({ properties: ['learner', 'course'] })
export class LessonCompletion {
  [OptionalProps]?: 'completedAt' | 'timeSpentSeconds';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @ManyToOne('Lesson', { deleteRule: 'cascade' })
  lesson!: Lesson;

  @ManyToOne('Course', { deleteRule: 'cascade' })
  course!: Course;

  @Property({ type: 'integer' })
  timeSpentSeconds: number = 0;

  @Property({ type: 'timestamptz' })
  completedAt: Date = new Date();
}

/** Every quiz attempt is kept; the best one counts. */
@Entity({ tableName: 'quiz_attempts' })
@Index({ properties: ['learner', 'course'] })
export class QuizAttempt {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @ManyToOne('Lesson', { deleteRule: 'cascade' })
  lesson!: Lesson;

  @ManyToOne('Course', { deleteRule: 'cascade' })
  course!: Course;

  @Property({ type: 'jsonb' })
  answers!: number[];

  @Property({ type: 'smallint' })
  correct!: number;

  @Property({ type: 'smallint' })
  total!: number;

  /** 0..100 */
  @Property({ type: 'smallint' })
  score!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/**
 * A learner's best result on a CodeLab exercise, fed by CodeLab's `exerciseJudged` event: the
 * best score of all their judged submissions, and whether one was accepted. The exercise, its
 * course and lesson are CodeLab's ids (no foreign keys across areas).
 */
@Entity({ tableName: 'exercise_results' })
@Unique({ properties: ['learner', 'exerciseId'] })
@Index({ properties: ['learner', 'courseId'] })
export class ExerciseResult {
  [OptionalProps]?: 'courseId' | 'lessonId' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @Property({ type: 'uuid' })
  exerciseId!: string;

  @Property({ type: 'uuid', nullable: true })
  courseId: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  lessonId: string | null = null;

  /** 0..100 */
  @Property({ type: 'smallint' })
  bestScore!: number;

  @Property({ type: 'boolean' })
  accepted!: boolean;

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
