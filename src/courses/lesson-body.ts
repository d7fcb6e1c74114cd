import { randomUUID } from 'node:crypto';
import { PrimaryKey, Property } from '@mikro-orm/core';
import type { AppError } from '../kernel/errors';
import type { Localized } from '../kernel/localized';

export interface QuizQuestion {
  prompt: Localized;
  options: Localized[];
  answerIndex: number;
  explanation: Localized;
}

export interface Quiz {
  questions: QuizQuestion[];
}

/** What the learner should be able to do after a lesson, in each language. */
export interface LessonObjectives {
  en: string[];
  vi: string[];
}

/**
 * The one model of a lesson: its place, texts and quiz, the same columns in a course's lessons, a
 * creator's draft lessons and a generation's lessons, which extend it with what ties them to their
 * course (a mapped superclass: no table of its own). Not an embeddable: MikroORM makes an embedded
 * value nullable only as a whole (every column), and only a generation's content is null, until its
 * writing stage ran; there `Content` is `Localized | null` and the subclass declares the column so.
 */
export abstract class LessonBody<Content extends Localized | null = Localized> {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'smallint' })
  position!: number;

  @Property({ type: 'jsonb' })
  title!: Localized;

  @Property({ type: 'jsonb' })
  objectives!: LessonObjectives;

  @Property({ type: 'jsonb' })
  content!: Content;

  /** The answers stay on the server: learners see questions and options only. */
  @Property({ type: 'jsonb', nullable: true })
  quiz: Quiz | null = null;
}

/** A lesson's texts and quiz as they are written (no place yet); a published lesson copies these. */
export interface NewLesson {
  title: Localized;
  objectives: LessonObjectives;
  content: Localized;
  quiz?: Quiz | null;
}

/** The texts and quiz of a lesson, and nothing else of the row (its id and place stay its own). */
export function lessonBodyOf(lesson: NewLesson): Required<NewLesson> {
  return { title: lesson.title, objectives: lesson.objectives, content: lesson.content, quiz: lesson.quiz ?? null };
}

/**
 * Each question names one of at least two options as its answer; the first that does not is
 * refused with the error the caller names (a course and a draft place the field differently).
 */
export function assertQuiz(quiz: Quiz | null | undefined, refusal: (question: number) => AppError): void {
  for (const [i, question] of (quiz?.questions ?? []).entries()) {
    if (question.options.length < 2 || question.answerIndex < 0 || question.answerIndex >= question.options.length)
      throw refusal(i);
  }
}
