import { setTimeout as sleep } from 'node:timers/promises';
import type { Quiz, QuizQuestion } from '../../courses';
import type { CourseBrief, CourseModel, LessonBrief, Outline, Research } from './model';
import { CONCEPTS, type Concept, LEVEL_NAME, LEVEL_START } from './offline-knowledge';
import type { Localized } from '../../kernel/localized';

/**
 * The built-in generator: no network, no model weights. It teaches the programming concepts of
 * its bank in order from the request's level, with examples in the language the topic names, in
 * a tone that fits the age range. `delayMs` stands in for a model's latency (demos, benchmarks).
 */
export class OfflineCourseModel implements CourseModel {
  readonly name = 'offline';

  constructor(private readonly delayMs = 0) {}

  async research(brief: CourseBrief): Promise<Research> {
    await this.think();
    const concepts = plan(brief).map((c) => ({ name: c.name, explanation: c.explanation }));
    const names = (lang: 'en' | 'vi') => concepts.map((c) => c.name[lang].toLowerCase()).join(', ');
    return {
      summary: {
        en: `A ${LEVEL_NAME[brief.level].en} course on ${brief.topic} for learners aged ${brief.minAge} to ${brief.maxAge}. Key concepts, in teaching order: ${names('en')}. Examples use ${codeLanguage(brief).label}.`,
        vi: `Khóa học ${LEVEL_NAME[brief.level].vi} về ${brief.topic} cho học viên từ ${brief.minAge} đến ${brief.maxAge} tuổi. Các khái niệm chính, theo thứ tự giảng dạy: ${names('vi')}. Ví dụ viết bằng ${codeLanguage(brief).label}.`,
      },
      concepts,
    };
  }

  async outline(brief: CourseBrief): Promise<Outline> {
    await this.think();
    const concepts = plan(brief);
    return {
      title: {
        en: `${brief.topic}: a ${LEVEL_NAME[brief.level].en} course`,
        vi: `${brief.topic}: khóa học ${LEVEL_NAME[brief.level].vi}`,
      },
      description: {
        en: `${brief.lessonCount} lessons for ages ${brief.minAge}-${brief.maxAge}, from ${concepts[0].name.en.toLowerCase()} to ${concepts.at(-1)!.name.en.toLowerCase()}, each with an example, an exercise and a quiz.`,
        vi: `${brief.lessonCount} bài học cho lứa tuổi ${brief.minAge}-${brief.maxAge}, từ ${concepts[0].name.vi.toLowerCase()} đến ${concepts.at(-1)!.name.vi.toLowerCase()}, mỗi bài có ví dụ, bài tập và câu hỏi trắc nghiệm.`,
      },
      lessons: concepts.map((concept, index) => {
        const project = index >= CONCEPTS.length;
        return {
          title: project
            ? {
                en: `Project ${index + 1 - CONCEPTS.length}: ${concept.name.en} in practice`,
                vi: `Dự án ${index + 1 - CONCEPTS.length}: thực hành ${concept.name.vi.toLowerCase()}`,
              }
            : concept.name,
          objectives: {
            en: [
              `Explain ${concept.name.en.toLowerCase()} in your own words`,
              `Read and run an example in ${codeLanguage(brief).label}`,
              'Solve the exercise on your own',
            ],
            vi: [
              `Giải thích ${concept.name.vi.toLowerCase()} bằng lời của em`,
              `Đọc và chạy một ví dụ bằng ${codeLanguage(brief).label}`,
              'Tự giải bài tập',
            ],
          },
        };
      }),
    };
  }

  async lessonContent(brief: CourseBrief, _research: Research, lesson: LessonBrief): Promise<Localized> {
    await this.think();
    const concept = plan(brief)[lesson.position - 1];
    const code = codeLanguage(brief);
    const young = brief.minAge < 10;
    const example = concept.code[code.key];
    const section = (lang: 'en' | 'vi') => {
      const words =
        lang === 'en'
          ? {
              intro: `In this lesson of the course "${brief.topic}" you learn about ${concept.name.en.toLowerCase()}.`,
              picture: 'Think of it this way',
              example: `Example in ${code.label}`,
              exercise: 'Your turn',
              recap: 'Remember',
            }
          : {
              intro: `Trong bài học này của khóa "${brief.topic}", em sẽ tìm hiểu về ${concept.name.vi.toLowerCase()}.`,
              picture: 'Hãy hình dung thế này',
              example: `Ví dụ bằng ${code.label}`,
              exercise: 'Đến lượt em',
              recap: 'Ghi nhớ',
            };
      return [
        `# ${lesson.title[lang]}`,
        words.intro,
        concept.explanation[lang],
        young || brief.level === 'beginner' ? `${words.picture}: ${concept.analogy[lang]}` : '',
        `## ${words.example}`,
        '```' + code.key + '\n' + example + '\n```',
        `## ${words.exercise}`,
        concept.exercise[lang],
        `## ${words.recap}`,
        lesson.objectives[lang].map((objective) => `- ${objective}`).join('\n'),
      ]
        .filter(Boolean)
        .join('\n\n');
    };
    return { en: section('en'), vi: section('vi') };
  }

  async quiz(brief: CourseBrief, lesson: LessonBrief): Promise<Quiz> {
    await this.think();
    const concept = plan(brief)[lesson.position - 1];
    return {
      questions: concept.questions.map((q, i) =>
        shuffled(q.answer, q.wrong, lesson.position + i, q.prompt, q.explanation),
      ),
    };
  }

  /**
   * The built-in generator has no translator: it hands each text back marked with the target
   * language, for a creator (or a demo) to rewrite; a model provider translates for real.
   */
  async translate(
    _brief: CourseBrief,
    texts: Record<string, string>,
    _from: 'en' | 'vi',
    to: 'en' | 'vi',
  ): Promise<Record<string, string>> {
    await this.think();
    return Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, `[${to}] ${text}`]));
  }

  private async think(): Promise<void> {
    if (this.delayMs > 0) await sleep(this.delayMs);
  }
}

/** The concept of each lesson: from the level's start, then projects that revisit them. */
function plan(brief: CourseBrief): Concept[] {
  const start = LEVEL_START[brief.level];
  return Array.from({ length: brief.lessonCount }, (_, i) => CONCEPTS[(start + i) % CONCEPTS.length]);
}

function codeLanguage(brief: CourseBrief): { key: 'python' | 'javascript'; label: string } {
  return /javascript|\bjs\b|node|web|html|typescript/i.test(brief.topic)
    ? { key: 'javascript', label: 'JavaScript' }
    : { key: 'python', label: 'Python' };
}

/** The right answer at a place that varies from question to question, the same every time. */
function shuffled(
  answer: Localized,
  wrong: Localized[],
  seed: number,
  prompt: Localized,
  explanation: Localized,
): QuizQuestion {
  const answerIndex = seed % (wrong.length + 1);
  const options = [...wrong];
  options.splice(answerIndex, 0, answer);
  return { prompt, options, answerIndex, explanation };
}
