import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import type { Language, RunStatus } from './sandbox';
import type { Localized } from '../kernel/localized';

export type Difficulty = 'easy' | 'medium' | 'hard';
export type SubmissionStatus = 'queued' | 'running' | 'completed';
export type Verdict = 'accepted' | 'wrong_answer' | Exclude<RunStatus, 'ok'>;

/**
 * One test of an exercise. An stdin/stdout test feeds `input` and compares what the program
 * printed with `expected` (trailing spaces and the final newline do not count). A function-call
 * test (`call` names the function) passes `input`, a JSON array, as arguments and compares the
 * returned value, as JSON, with `expected`.
 */
export interface ExerciseTest {
  name: string;
  hidden: boolean;
  input: string;
  expected: string;
  call?: string | null;
}

@Entity({ tableName: 'codelab_exercises' })
@Index({ properties: ['createdAt', 'id'] })
export class Exercise {
  [OptionalProps]?: 'slug' | 'courseId' | 'lessonId' | 'starterCode' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The starter set's stable name, so it is written once; null for exercises content admins write. */
  @Property({ type: 'text', nullable: true, unique: true })
  slug: string | null = null;

  @Property({ type: 'jsonb' })
  title!: Localized;

  @Property({ type: 'jsonb' })
  prompt!: Localized;

  @Property({ type: 'text' })
  language!: Language;

  @Property({ type: 'text' })
  starterCode: string = '';

  @Property({ type: 'text' })
  difficulty!: Difficulty;

  @Property({ type: 'uuid', nullable: true })
  courseId: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  lessonId: string | null = null;

  @Property({ type: 'jsonb' })
  tests!: ExerciseTest[];

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** What one test of a submission showed; a hidden test shows only whether it passed (message and time null). */
export interface TestResult {
  name: string;
  hidden: boolean;
  passed: boolean;
  message: string | null;
  timeMs: number | null;
}

@Entity({ tableName: 'codelab_submissions' })
@Index({ properties: ['user', 'createdAt', 'id'] })
export class Submission {
  [OptionalProps]?: 'status' | 'verdict' | 'score' | 'results' | 'createdAt' | 'finishedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Exercise, { deleteRule: 'cascade' })
  exercise!: Exercise;

  @ManyToOne('User', { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  status: SubmissionStatus = 'queued';

  @Property({ type: 'text', nullable: true })
  verdict: Verdict | null = null;

  @Property({ type: 'smallint' })
  score: number = 0;

  @Property({ type: 'jsonb' })
  results: TestResult[] = [];

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  /**
   * When the verdict may be shown, fixed at submission from the exercise's number of tests: how long
   * judging took would otherwise tell something of the hidden tests' input. Until then the stored
   * verdict is the judge's alone, and `status` stays `queued`.
   */
  @Property({ type: 'timestamptz' })
  releaseAt!: Date;

  /** When the verdict was released (shown as when judging ended). */
  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;
}
