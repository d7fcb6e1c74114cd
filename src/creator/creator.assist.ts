import {
  classify,
  type CourseBrief,
  factoryModelsOf,
  type LessonBrief,
  type LessonText,
  localizedTexts,
  ProviderError,
  type SafetyFinding,
} from '../factory';
import type { Deps } from '../kernel/deps';
import type { CreatorCourse, CreatorLesson } from './creator.entity';
import {
  lessonOrPromptMissing,
  nothingToTranslate,
  providerFailed,
  unknownAssistTask,
  unknownLesson,
  unknownTargetLanguage,
} from './creator.errors';

export enum AssistTask {
  outline = 'outline',
  lesson = 'lesson',
  quiz = 'quiz',
  translate = 'translate',
  review = 'review',
}

export interface AssistResult {
  task: AssistTask;
  /** What the model proposes (an outline, a lesson's content, a quiz); nothing is saved. */
  suggestion: Record<string, unknown>;
  /** The safety check on what came back (and, for review, on the draft itself). */
  findings: SafetyFinding[];
  model: string;
}

/**
 * A model's help with a draft, through the course factory's providers (FACTORY_PROVIDERS decides
 * which), with the child-safety check run on every answer before the creator sees it.
 */
export async function assist(
  deps: Deps,
  draft: CreatorCourse,
  lessons: CreatorLesson[],
  task: AssistTask,
  lessonId?: string | null,
  prompt?: string | null,
): Promise<AssistResult> {
  const models = factoryModelsOf(deps).byStage;
  const brief: CourseBrief = {
    topic: [draft.title.en, prompt?.trim()].filter(Boolean).join(': '),
    level: draft.level,
    minAge: draft.minAge,
    maxAge: draft.maxAge,
    lessonCount: Math.min(30, Math.max(1, lessons.length || 5)),
  };
  const lesson = lessonId ? lessons.find((l) => l.id === lessonId) : undefined;
  if (lessonId && !lesson) throw unknownLesson();
  const lessonBrief = (): LessonBrief => {
    if (lesson)
      return { position: lesson.position, title: lesson.title, objectives: lesson.objectives, content: lesson.content };
    if (!prompt?.trim()) throw lessonOrPromptMissing();
    return {
      position: lessons.length + 1,
      title: { en: prompt.trim(), vi: prompt.trim() },
      objectives: { en: [], vi: [] },
    };
  };
  try {
    switch (task) {
      case AssistTask.outline: {
        const research = await models.research.research(brief);
        const outline = await models.outline.outline(brief, research);
        return checked(task, models.outline.name, { ...outline }, draft.minAge, [
          ...localizedTexts('title', outline.title),
          ...localizedTexts('description', outline.description),
          ...outline.lessons.flatMap((l, i) => localizedTexts(`lessons.${i + 1}.title`, l.title)),
        ]);
      }
      case AssistTask.lesson: {
        const target = lessonBrief();
        const research = await models.research.research(brief);
        const content = await models.content.lessonContent(brief, research, target);
        return checked(
          task,
          models.content.name,
          { position: target.position, content },
          draft.minAge,
          localizedTexts('content', content),
        );
      }
      case AssistTask.quiz: {
        const target = lessonBrief();
        const quiz = await models.quiz.quiz(brief, target);
        const texts = quiz.questions.flatMap((q, i) => [
          ...localizedTexts(`quiz.${i}.prompt`, q.prompt),
          ...q.options.flatMap((o, j) => localizedTexts(`quiz.${i}.options.${j}`, o)),
        ]);
        return checked(task, models.quiz.name, { ...quiz }, draft.minAge, texts);
      }
      case AssistTask.review: {
        const texts = [
          ...localizedTexts('title', draft.title),
          ...localizedTexts('description', draft.description),
          ...lessons.flatMap((l) => [
            ...localizedTexts(`lessons.${l.position}.title`, l.title),
            ...localizedTexts(`lessons.${l.position}.content`, l.content),
          ]),
        ];
        const findings = classify(texts, draft.minAge);
        return {
          task,
          suggestion: { lessons: lessons.length, ready: findings.length === 0 && lessons.length > 0 },
          findings,
          model: 'builtin-safety',
        };
      }
      case AssistTask.translate: {
        // Into `prompt` (en or vi) when it names one, else into whichever language the draft lacks (Vietnamese when neither).
        const wanted = prompt?.trim().toLowerCase();
        if (wanted && wanted !== 'en' && wanted !== 'vi') throw unknownTargetLanguage();
        const sources = lesson
          ? [...localizedTexts('title', lesson.title), ...localizedTexts('content', lesson.content)]
          : [
              ...localizedTexts('title', draft.title),
              ...localizedTexts('description', draft.description),
              ...lessons.flatMap((l) => localizedTexts(`lessons.${l.position}.title`, l.title)),
            ];
        const to =
          (wanted as 'en' | 'vi' | undefined) ??
          (sources.some((s) => s.field.endsWith('.en') && !s.text.trim()) ? 'en' : 'vi');
        const from = to === 'en' ? 'vi' : 'en';
        const texts = Object.fromEntries(
          sources
            .filter((s) => s.field.endsWith(`.${from}`) && s.text.trim())
            .map((s) => [s.field.slice(0, -from.length - 1), s.text]),
        );
        if (!Object.keys(texts).length) throw nothingToTranslate(lesson ? 'lessonId' : 'task', from);
        const translated = await models.content.translate(brief, texts, from, to);
        return checked(
          task,
          models.content.name,
          { from, to, lessonId: lesson?.id ?? null, texts: translated },
          draft.minAge,
          Object.entries(translated).map(([field, text]) => ({ field: `${field}.${to}`, text })),
        );
      }
      default:
        throw unknownAssistTask();
    }
  } catch (error) {
    if (error instanceof ProviderError) {
      throw providerFailed(/unreachable|timed out/.test(error.message));
    }
    throw error;
  }
}

function checked(
  task: AssistTask,
  model: string,
  suggestion: Record<string, unknown>,
  minAge: number,
  texts: LessonText[],
): AssistResult {
  return { task, suggestion, findings: classify(texts, minAge), model };
}
