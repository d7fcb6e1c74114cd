import type { Quiz } from '../../courses';
import type { SafetyFinding } from '../generation.entity';
import type { Localized } from '../../kernel/localized';

/** What was asked for: the generation request, validated. */
export interface CourseBrief {
  topic: string;
  level: 'beginner' | 'intermediate' | 'advanced';
  minAge: number;
  maxAge: number;
  lessonCount: number;
}

export interface KeyConcept {
  name: Localized;
  explanation: Localized;
}

/** Stage 1: what the course must cover. */
export interface Research {
  summary: Localized;
  concepts: KeyConcept[];
}

export interface LessonPlan {
  title: Localized;
  objectives: { en: string[]; vi: string[] };
}

/** Stage 2: the course's structure. */
export interface Outline {
  title: Localized;
  description: Localized;
  lessons: LessonPlan[];
}

/** A lesson to write (stage 3) or to quiz on (stage 4); `flaggedFor` when it is written again. */
export interface LessonBrief extends LessonPlan {
  position: number;
  content?: Localized;
  flaggedFor?: SafetyFinding[];
}

/** A model that writes courses: the built-in offline generator or a chat-completions endpoint. */
export interface CourseModel {
  readonly name: string;
  research(brief: CourseBrief): Promise<Research>;
  outline(brief: CourseBrief, research: Research): Promise<Outline>;
  lessonContent(brief: CourseBrief, research: Research, lesson: LessonBrief): Promise<Localized>;
  quiz(brief: CourseBrief, lesson: LessonBrief): Promise<Quiz>;
  /** Each text (keyed by field) in the other language of the course, for learners of the brief's ages. */
  translate(
    brief: CourseBrief,
    texts: Record<string, string>,
    from: 'en' | 'vi',
    to: 'en' | 'vi',
  ): Promise<Record<string, string>>;
}

/** A provider that could not answer; the stage is tried again with backoff. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}
