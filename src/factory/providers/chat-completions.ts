import { z } from 'zod';
import type { Quiz } from '../../courses';
import {
  type CourseBrief,
  type CourseModel,
  type LessonBrief,
  type Outline,
  ProviderError,
  type Research,
} from './model';
import type { Localized } from '../../kernel/localized';

export interface ModelEndpoint {
  /** The OpenAI-compatible base, e.g. http://localhost:8000/v1 (vLLM), http://localhost:11434/v1 (Ollama). */
  url: string;
  model: string;
  apiKey?: string;
}

export interface ChatOptions {
  timeoutMs: number;
  /** How many times a malformed answer is sent back for correction before the attempt fails. */
  malformedRetries: number;
}

const text = z.object({ en: z.string().trim().min(1), vi: z.string().trim().min(1) });
const researchSchema = z.object({
  summary: text,
  concepts: z
    .array(z.object({ name: text, explanation: text }))
    .min(1)
    .max(40),
});
const lessonPlan = z.object({
  title: text,
  objectives: z.object({ en: z.array(z.string().min(1)).min(1), vi: z.array(z.string().min(1)).min(1) }),
});
const outlineSchema = (count: number) =>
  z.object({ title: text, description: text, lessons: z.array(lessonPlan).length(count) });
const contentSchema = z.object({ content: text });
const quizSchema = z.object({
  questions: z
    .array(
      z
        .object({
          prompt: text,
          options: z.array(text).min(2).max(6),
          answerIndex: z.number().int().min(0),
          explanation: text,
        })
        .refine((q) => q.answerIndex < q.options.length, {
          message: 'answerIndex must name one of the options',
          path: ['answerIndex'],
        }),
    )
    .min(1)
    .max(10),
});

const SYSTEM =
  'You write coding courses for school-age children on a learning platform in Viet Nam. Every text is given in English (en) and Vietnamese (vi). ' +
  'Content must be safe for the stated ages: no violence, sexual content, self-harm, hate, personal data or external links. Answer with one JSON object only.';

/**
 * A course model behind an OpenAI-compatible chat-completions endpoint: open-weight models served
 * by vLLM, Ollama or llama.cpp, or a commercial small model. Answers are asked for as JSON and
 * checked against the stage's schema; a malformed answer goes back to the model with the problem.
 */
export class ChatCompletionsModel implements CourseModel {
  readonly name: string;

  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly options: ChatOptions,
  ) {
    this.name = `chat:${endpoint.model}`;
  }

  research(brief: CourseBrief): Promise<Research> {
    return this.ask(
      researchSchema,
      `Research the topic of this course and list its key concepts in teaching order.\n${describe(brief)}\nJSON shape: {"summary":{"en","vi"},"concepts":[{"name":{"en","vi"},"explanation":{"en","vi"}}]}`,
    );
  }

  outline(brief: CourseBrief, research: Research): Promise<Outline> {
    return this.ask(
      outlineSchema(brief.lessonCount),
      `Create the course structure: exactly ${brief.lessonCount} lessons in order, each with learning objectives.\n${describe(brief)}\nResearch: ${JSON.stringify(research)}\n` +
        'JSON shape: {"title":{"en","vi"},"description":{"en","vi"},"lessons":[{"title":{"en","vi"},"objectives":{"en":[string],"vi":[string]}}]}',
    );
  }

  async lessonContent(brief: CourseBrief, research: Research, lesson: LessonBrief): Promise<Localized> {
    const again = lesson.flaggedFor?.length
      ? `\nAn earlier version was rejected by the child-safety check for: ${lesson.flaggedFor.map((f) => `${f.category} ("${f.excerpt}")`).join('; ')}. Write it again without any of that.`
      : '';
    const answer = await this.ask(
      contentSchema,
      `Write lesson ${lesson.position} in Vietnamese and English: explanation, a short code example, an exercise and a recap.\n${describe(brief)}\n` +
        `Lesson: ${JSON.stringify({ title: lesson.title, objectives: lesson.objectives })}\nKey concepts: ${JSON.stringify(research.concepts.map((c) => c.name))}${again}\nJSON shape: {"content":{"en","vi"}}`,
    );
    return answer.content;
  }

  quiz(brief: CourseBrief, lesson: LessonBrief): Promise<Quiz> {
    return this.ask(
      quizSchema,
      `Write 2 to 4 multiple-choice questions on this lesson, each with the index of the right option and an explanation.\n${describe(brief)}\n` +
        `Lesson: ${JSON.stringify({ title: lesson.title, objectives: lesson.objectives, content: lesson.content })}\n` +
        'JSON shape: {"questions":[{"prompt":{"en","vi"},"options":[{"en","vi"}],"answerIndex":0,"explanation":{"en","vi"}}]}',
    );
  }

  async translate(
    brief: CourseBrief,
    texts: Record<string, string>,
    from: 'en' | 'vi',
    to: 'en' | 'vi',
  ): Promise<Record<string, string>> {
    const keys = Object.keys(texts);
    const schema = z.object(Object.fromEntries(keys.map((key) => [key, z.string().min(1)]))) as unknown as z.ZodType<
      Record<string, string>
    >;
    const language = { en: 'English', vi: 'Vietnamese' };
    return this.ask(
      schema,
      [
        `Translate each value of this JSON object from ${language[from]} to ${language[to]}, for learners aged ${brief.minAge} to ${brief.maxAge}.`,
        'Keep every key, keep code and names as they are, and answer with the JSON object only.',
        JSON.stringify(texts),
      ].join('\n'),
    );
  }

  private async ask<T>(schema: z.ZodType<T>, prompt: string): Promise<T> {
    const messages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: prompt },
    ];
    for (let attempt = 0; ; attempt++) {
      const answer = await this.complete(messages);
      const problem = check(schema, answer);
      if (problem.ok) return problem.value;
      if (attempt >= this.options.malformedRetries)
        throw new ProviderError(`${this.name} gave malformed output ${attempt + 1} times: ${problem.error}`);
      messages.push(
        { role: 'assistant', content: answer },
        {
          role: 'user',
          content: `That answer is not valid: ${problem.error}. Answer again with the JSON object only.`,
        },
      );
    }
  }

  private async complete(messages: { role: string; content: string }[]): Promise<string> {
    const body = await postJson<{ choices?: { message?: { content?: unknown } }[] }>(
      this.endpoint,
      '/chat/completions',
      this.name,
      this.options.timeoutMs,
      {
        model: this.endpoint.model,
        messages,
        temperature: 0.4,
        response_format: { type: 'json_object' },
      },
    );
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ProviderError(`${this.name} answered without a message`);
    return content;
  }
}

/** POSTs JSON to an OpenAI-compatible endpoint; any failure to get a JSON answer is a ProviderError. */
export async function postJson<T>(
  endpoint: ModelEndpoint,
  path: string,
  name: string,
  timeoutMs: number,
  payload: unknown,
): Promise<T | null> {
  let response: Response;
  try {
    response = await fetch(`${endpoint.url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ProviderError(
      `${name} is unreachable: ${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}`,
    );
  }
  if (!response.ok) throw new ProviderError(`${name} answered HTTP ${response.status}`);
  return (await response.json().catch(() => null)) as T | null;
}

function describe(brief: CourseBrief): string {
  return `Course: topic "${brief.topic}", level ${brief.level}, learners aged ${brief.minAge} to ${brief.maxAge}, ${brief.lessonCount} lessons.`;
}

/** JSON (fenced or not) that fits the schema, or what is wrong with it in a few words. */
function check<T>(schema: z.ZodType<T>, answer: string): { ok: true; value: T } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(answer.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${issue.path.join('.') || 'the answer'}: ${issue.message}` };
}
