import { randomBytes } from 'node:crypto';
import type { ExerciseTest, TestResult, Verdict } from './codelab.entity';
import type { CodeRunner, Language, RunResult } from './sandbox';

/**
 * The program one test runs: the learner's code as is for an stdin/stdout test; for a
 * function-call test, the code followed by a call whose JSON result is printed after a random
 * marker, so what the learner prints themselves does not get in the way.
 */
export function programFor(
  language: Language,
  code: string,
  test: ExerciseTest,
  marker: string,
): { code: string; stdin: string } {
  if (!test.call) return { code, stdin: test.input };
  const args = JSON.stringify(test.input);
  if (language === 'python') {
    return {
      code: `${code}\n\nimport json as _codelab_json\nprint(${JSON.stringify(marker)} + _codelab_json.dumps(${test.call}(*_codelab_json.loads(${args}))))\n`,
      stdin: '',
    };
  }
  return {
    code: `${code}\n;console.log(${JSON.stringify(marker)} + JSON.stringify(${test.call}(...JSON.parse(${args}))));\n`,
    stdin: '',
  };
}

const normalise = (text: string) =>
  text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.hasOwn(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

const short = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);

const STATUS_WORDS: Record<string, string> = {
  runtime_error: 'Runtime error',
  syntax_error: 'Syntax error',
  time_limit_exceeded: 'Time limit exceeded',
  memory_limit_exceeded: 'Memory limit exceeded',
  output_limit_exceeded: 'Output limit exceeded',
};

interface Outcome {
  result: TestResult;
  failure: Verdict | null;
}

/**
 * One test's verdict. A hidden test shows only whether it passed (docs/codelab.md): its status kind,
 * message and time would each say something of its input (a learner could binary-search it by
 * making the program fail one way or another), so the result carries none of them.
 */
export function judgeTest(test: ExerciseTest, run: RunResult, marker: string): Outcome {
  const outcome = judgeVisible(test, run, marker);
  if (!test.hidden) return outcome;
  return {
    result: { name: test.name, hidden: true, passed: outcome.result.passed, message: null, timeMs: null },
    failure: outcome.failure,
  };
}

function judgeVisible(test: ExerciseTest, run: RunResult, marker: string): Outcome {
  const base = { name: test.name, hidden: test.hidden, timeMs: run.timeMs };
  if (run.status !== 'ok') {
    const lastLine = run.stderr.trim().split('\n').at(-1) ?? '';
    const message = lastLine ? `${STATUS_WORDS[run.status]}: ${short(lastLine)}` : STATUS_WORDS[run.status];
    return { result: { ...base, passed: false, message }, failure: run.status };
  }
  let passed: boolean;
  let got: string;
  if (test.call) {
    const at = run.stdout.lastIndexOf(marker);
    got = at < 0 ? '' : run.stdout.slice(at + marker.length).split('\n')[0];
    try {
      passed = at >= 0 && same(JSON.parse(got), JSON.parse(test.expected));
    } catch {
      passed = false;
    }
  } else {
    got = normalise(run.stdout);
    passed = got === normalise(test.expected);
  }
  if (passed) return { result: { ...base, passed, message: null }, failure: null };
  const message = `Wrong answer: expected ${short(JSON.stringify(test.call ? test.expected : normalise(test.expected)))}, got ${short(JSON.stringify(got))}`;
  return { result: { ...base, passed, message }, failure: 'wrong_answer' };
}

export interface Judgement {
  verdict: Verdict;
  score: number;
  results: TestResult[];
}

/**
 * Runs every test and gives the verdict of the first failing visible test in the exercise's order;
 * when only hidden tests fail, `wrong_answer`, whatever they ended as (their kind would be the
 * oracle that their results hide); else accepted. A syntax error is the verdict whichever tests
 * there are: it comes from the code alone, before any input is read.
 *
 * The tests are one person's code, so they run one after another in one interpreter no one else's
 * code touched (CodeRunner.runAll), visible tests first: a program can keep what it saw of earlier
 * tests' inputs, and what a visible test prints is shown, so no hidden input may come before it.
 */
export async function judge(
  runner: CodeRunner,
  language: Language,
  code: string,
  tests: ExerciseTest[],
): Promise<Judgement> {
  const marker = `@@codelab-${randomBytes(8).toString('hex')}@@`;
  const order = tests.map((_, i) => i).sort((a, b) => Number(tests[a].hidden) - Number(tests[b].hidden));
  const ran = await runner.runAll(
    language,
    order.map((i) => programFor(language, code, tests[i], marker)),
  );
  const runs: RunResult[] = [];
  order.forEach((testIndex, at) => (runs[testIndex] = ran[at]));
  const syntaxError = runs[0].status === 'syntax_error' ? runs[0] : undefined;
  const outcomes = tests.map((test, i) => judgeTest(test, syntaxError ?? runs[i], marker));
  const passed = outcomes.filter((o) => o.result.passed).length;
  const visibleFailure = outcomes.find((o) => o.failure && !o.result.hidden)?.failure;
  const hiddenFailure = outcomes.some((o) => o.failure && o.result.hidden);
  return {
    verdict: syntaxError ? 'syntax_error' : (visibleFailure ?? (hiddenFailure ? 'wrong_answer' : 'accepted')),
    score: Math.round((100 * passed) / tests.length),
    results: outcomes.map((o) => o.result),
  };
}
