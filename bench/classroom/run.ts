import '../production';
import { spawn } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import type { ExerciseTest } from '../../src/codelab/codelab.entity';
import { judge } from '../../src/codelab/codelab.judge';
import { CodeRunner, type Language } from '../../src/codelab/sandbox';

/**
 * A whole class presses Run at the same moment: 30 learners (BENCH_LEARNERS) send the same small
 * program, and the figures are the time from the press to the first, median, 90th-percentile and
 * last answer. Beside it, in the same run, the same number of native `python3` processes started at
 * once without any sandbox: what the machine needs to start that many interpreters, the reference
 * the class's last Python answer is compared with. Then the class in JavaScript, and the class
 * submitting an exercise with five hidden tests (judged as the service judges: a submission's tests
 * one after another in one fresh Python process), timed to the last verdict; judging's own
 * completion, without the job queue or any release delay.
 *
 * The pool is the service's, set up for a class: CODELAB_WORKERS runs at once (default: cores) and
 * CODELAB_PYTHON_SPARES loaded processes beyond them (default here: one per learner; the service's
 * own default is as many as workers), all ready before the class presses Run. The CPU time a fresh
 * Python process took to load is printed too: unlike the times, the machine's other load barely moves it.
 */
const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 30);
const PYTHON = 'print(sum(range(10)))';
const JAVASCRIPT = 'let s = 0; for (let i = 0; i < 10; i++) s += i; console.log(s);';
const TESTS: ExerciseTest[] = Array.from({ length: 5 }, (_, i) => ({
  name: `hidden ${i + 1}`,
  hidden: true,
  input: `${i + 1}\n`,
  expected: `${(i + 1) * 2}`,
  call: null,
}));
const SOLUTION = 'print(int(input()) * 2)';

interface Spread {
  first: number;
  p50: number;
  p90: number;
  last: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Starts every task at the same moment; each figure is milliseconds from that moment to its end. */
async function atOnce(count: number, task: (i: number) => Promise<void>): Promise<Spread> {
  const t0 = performance.now();
  const ends = await Promise.all(Array.from({ length: count }, (_, i) => task(i).then(() => performance.now() - t0)));
  ends.sort((a, b) => a - b);
  return { first: ends[0], p50: pct(ends, 50), p90: pct(ends, 90), last: ends[ends.length - 1] };
}

function nativePython(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', PYTHON], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 && out === '45\n' ? resolve() : reject(new Error(`python3 exited with ${code}: ${out}`)),
    );
  });
}

/** Waits until the pool has every worker and spare ready: the class presses Run on a warm service. */
async function poolFull(runner: CodeRunner, language: Language, expected: number): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (runner.stats()[language].ready < expected) {
    if (Date.now() > deadline)
      throw new Error(`${language}: the pool did not fill in time: ${JSON.stringify(runner.stats()[language])}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(0)} ms`).padStart(9);
const row = (what: string, s: Spread, note = '') =>
  console.log(`${what.padEnd(44)}${ms(s.first)}${ms(s.p50)}${ms(s.p90)}${ms(s.last)}${note ? `   ${note}` : ''}`);

async function main() {
  const workers = Number(process.env.CODELAB_WORKERS ?? availableParallelism());
  const spares = Number(process.env.CODELAB_PYTHON_SPARES ?? LEARNERS);
  const runner = new CodeRunner({ workers, pythonSpares: spares });
  const t0 = Date.now();
  await runner.start();
  await poolFull(runner, 'python', workers + spares);
  console.log(
    `CodeLab class bench: ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )}; ${LEARNERS} learners, ${workers} runs at once per language, ${spares} Python spares, pool warm in ${Date.now() - t0} ms; a fresh Python process took ${runner.stats().python.startCpuMs ?? '?'} ms of CPU to load\n`,
  );
  console.log(`${''.padEnd(44)}${'first'.padStart(9)}${'p50'.padStart(9)}${'p90'.padStart(9)}${'last'.padStart(9)}`);
  const native = await atOnce(LEARNERS, nativePython);
  row(`${LEARNERS} native python3 -c, no sandbox`, native);
  const python = await atOnce(LEARNERS, async () => {
    const result = await runner.runCode({ language: 'python', code: PYTHON });
    if (result.status !== 'ok' || result.stdout !== '45\n') throw new Error(`python: ${JSON.stringify(result)}`);
  });
  row(
    `${LEARNERS} learners press Run, Python`,
    python,
    `last at ${(python.last / native.last).toFixed(2)} x native (aim: 1.5 or less)`,
  );
  await poolFull(runner, 'javascript', workers);
  const javascript = await atOnce(LEARNERS, async () => {
    const result = await runner.runCode({ language: 'javascript', code: JAVASCRIPT });
    if (result.status !== 'ok' || result.stdout !== '45\n') throw new Error(`javascript: ${JSON.stringify(result)}`);
  });
  row(`${LEARNERS} learners press Run, JavaScript`, javascript, 'aim: last within 500 ms');
  await poolFull(runner, 'python', workers + spares);
  const judged = await atOnce(LEARNERS, async () => {
    const judgement = await judge(runner, 'python', SOLUTION, TESTS);
    if (judgement.verdict !== 'accepted') throw new Error(`judge: ${JSON.stringify(judgement)}`);
  });
  row(
    `${LEARNERS} submissions x ${TESTS.length} hidden tests, Python`,
    judged,
    `last at ${(judged.last / python.last).toFixed(2)} x the class's runs (aim: 2 or less)`,
  );
  console.log(
    `\nload average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}; ${JSON.stringify(runner.stats())}`,
  );
  await runner.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
