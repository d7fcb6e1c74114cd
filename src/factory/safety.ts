import type { LessonBody } from '../courses';
import type { Localized } from '../kernel/localized';
import type { SafetyCategory, SafetyFinding } from './generation.entity';
import { type ModelEndpoint, postJson } from './providers/chat-completions';
import { ProviderError } from './providers/model';

/** One text of a lesson to check, named by where it sits (title.en, content.vi, quiz.en, ...). */
export interface LessonText {
  field: string;
  text: string;
}

/** A text in both languages, as two texts to check: `<field>.en` and `<field>.vi`. */
export function localizedTexts(field: string, text: Localized): LessonText[] {
  return [
    { field: `${field}.en`, text: text.en },
    { field: `${field}.vi`, text: text.vi },
  ];
}

/**
 * Every text of a lesson, written or generated, to check: its fields named under `at`
 * (`lessons.2.title.en` in a draft, `title.en` in a generation); content not written yet is empty.
 */
export function lessonTexts(lesson: Omit<LessonBody<Localized | null>, 'id' | 'position'>, at = ''): LessonText[] {
  const quiz = (lang: 'en' | 'vi') =>
    (lesson.quiz?.questions ?? [])
      .map((q) => [q.prompt[lang], ...q.options.map((o) => o[lang]), q.explanation[lang]].join('\n'))
      .join('\n');
  return [
    ...localizedTexts(`${at}title`, lesson.title),
    { field: `${at}objectives.en`, text: lesson.objectives.en.join('\n') },
    { field: `${at}objectives.vi`, text: lesson.objectives.vi.join('\n') },
    ...localizedTexts(`${at}content`, lesson.content ?? { en: '', vi: '' }),
    { field: `${at}quiz.en`, text: quiz('en') },
    { field: `${at}quiz.vi`, text: quiz('vi') },
  ];
}

type Pattern = { category: SafetyCategory; pattern: RegExp; maxAge?: number };

// Letters and digits of every script count as word characters, so Vietnamese words with
// diacritics are matched whole ("giết" does not match inside another word).
const word = (terms: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/**
 * The built-in child-safety classifier, English and Vietnamese. It errs on the side of flagging: a
 * flagged lesson goes to a person, a missed one goes to a child. Words that are ordinary in
 * programming ("kill a process", "execute", "shoot a bug") are not on the lists.
 */
const PATTERNS: Pattern[] = [
  {
    category: 'violence',
    pattern: word([
      'murder\\w*',
      'guns?',
      'firearms?',
      'rifles?',
      'bombs?',
      'stab(?:bed|bing)?',
      'behead\\w*',
      'massacre\\w*',
      'tortur\\w*',
      'shoot (?:him|her|them|people|someone)',
      'kill (?:him|her|them|people|someone|everyone)',
      'giết người',
      'giết',
      'súng',
      'bom',
      'đâm chém',
      'chém giết',
      'bạo lực',
      'tra tấn',
      'thảm sát',
    ]),
  },
  {
    category: 'sexual',
    pattern: word([
      'sex',
      'sexual\\w*',
      'porn\\w*',
      'nude\\w*',
      'naked',
      'erotic\\w*',
      'tình dục',
      'khiêu dâm',
      'khỏa thân',
      'khoả thân',
      'đồi trụy',
      'đồi truỵ',
    ]),
  },
  {
    category: 'self_harm',
    pattern: word([
      'suicid\\w*',
      'self-harm\\w*',
      'self harm',
      'kill (?:yourself|myself|themselves)',
      'cut (?:yourself|myself)',
      'tự tử',
      'tự sát',
      'tự hại',
      'tự làm hại',
      'tự làm đau',
    ]),
  },
  {
    category: 'hate',
    pattern: word([
      'racis\\w*',
      'inferior races?',
      'hate (?:speech|group)',
      'ethnic cleansing',
      'subhuman',
      'phân biệt chủng tộc',
      'kỳ thị',
      'kì thị',
      'chủng tộc thấp kém',
      'miệt thị',
    ]),
  },
  {
    category: 'personal_data',
    pattern: /(?<![\p{N}])(?:\+?84|0)(?:[\s.-]?\d){9,10}(?![\p{N}])|(?<![\p{N}])\+\d(?:[\s.-]?\d){7,14}(?![\p{N}])/u,
  },
  { category: 'personal_data', pattern: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/u },
  {
    category: 'personal_data',
    pattern:
      /\b\d{1,5}\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St\.|Road|Rd\.|Avenue|Ave\.|Lane|Boulevard)\b|(?:số nhà|số)\s+\d{1,5}[\p{L}\p{N}\s,/]{0,30}(?:đường|phố|ngõ|hẻm)\s+\p{Lu}/u,
  },
  { category: 'external_link', pattern: /\bhttps?:\/\/\S+|\bwww\.[\w-]+\.\w{2,}\S*/iu },
  {
    category: 'age_fit',
    maxAge: 15,
    pattern: word([
      'gambl\\w*',
      'betting',
      'casinos?',
      'alcohol\\w*',
      'beers?',
      'wine',
      'cigarettes?',
      'vap(?:e|es|ing)',
      'dating',
      'cờ bạc',
      'cá cược',
      'cá độ',
      'sòng bạc',
      'rượu',
      'bia',
      'thuốc lá',
      'hẹn hò',
    ]),
  },
];

/** What the built-in classifier finds in a lesson's texts, for learners from `minAge` up. */
export function classify(texts: LessonText[], minAge: number): SafetyFinding[] {
  const findings: SafetyFinding[] = [];
  for (const { field, text } of texts) {
    const normalized = text.normalize('NFC');
    for (const { category, pattern, maxAge } of PATTERNS) {
      if (maxAge !== undefined && minAge > maxAge) continue;
      const match = pattern.exec(normalized);
      if (match)
        findings.push({
          category,
          source: 'builtin',
          field,
          excerpt: excerpt(normalized, match.index, match[0].length),
        });
    }
  }
  return dedupe(findings);
}

function excerpt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 20);
  return `${start > 0 ? '…' : ''}${text
    .slice(start, at + length + 20)
    .replace(/\s+/g, ' ')
    .trim()}${at + length + 20 < text.length ? '…' : ''}`;
}

function dedupe(findings: SafetyFinding[]): SafetyFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => !seen.has(`${f.category}|${f.field}`) && seen.add(`${f.category}|${f.field}`));
}

const MODERATION_CATEGORIES: Record<string, SafetyCategory> = {
  violence: 'violence',
  'violence/graphic': 'violence',
  sexual: 'sexual',
  'sexual/minors': 'sexual',
  'self-harm': 'self_harm',
  'self-harm/intent': 'self_harm',
  'self-harm/instructions': 'self_harm',
  hate: 'hate',
  'hate/threatening': 'hate',
  harassment: 'hate',
  'harassment/threatening': 'hate',
};

/** An OpenAI-compatible moderation endpoint (`POST {url}/moderations`), when one is configured. */
export class ModerationClient {
  constructor(
    private readonly endpoint: ModelEndpoint,
    private readonly timeoutMs: number,
  ) {}

  async check(texts: LessonText[]): Promise<SafetyFinding[]> {
    if (!texts.length) return [];
    const body = await postJson<{ results?: { flagged?: boolean; categories?: Record<string, boolean> }[] }>(
      this.endpoint,
      '/moderations',
      'moderation endpoint',
      this.timeoutMs,
      {
        model: this.endpoint.model,
        input: texts.map((t) => t.text),
      },
    );
    if (!Array.isArray(body?.results) || body.results.length !== texts.length)
      throw new ProviderError('moderation endpoint answered without one result per text');
    return body.results.flatMap((result, i) => {
      if (!result.flagged) return [];
      const categories = Object.entries(result.categories ?? {})
        .filter(([, on]) => on)
        .map(([name]) => MODERATION_CATEGORIES[name] ?? 'age_fit');
      return [...new Set(categories.length ? categories : (['age_fit'] as SafetyCategory[]))].map((category) => ({
        category,
        source: 'moderation' as const,
        field: texts[i].field,
        excerpt: texts[i].text.slice(0, 80),
      }));
    });
  }
}
