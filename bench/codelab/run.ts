import '../production';
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import type { ExerciseTest } from '../../src/codelab/codelab.entity';
import { judge } from '../../src/codelab/codelab.judge';
import { CodeRunner, type Language } from '../../src/codelab/sandbox';

/**
 * CodeLab's sandbox under load. Every run gets a worker that has run nothing before, so two
 * figures matter: the latency of a run that finds the pool warm (what a learner waits for when
 * runs do not come faster than the pool refills), and runs per second and p50/p99 when clients send
 * runs back to back (then the refill is the limit). Also submissions judged per second for an
 * exercise with 10 tests, and the same program run by the plain interpreter (`node`, `python3`)
 * as the baseline. BENCH_SECONDS (default 10) per measurement, CODELAB_WORKERS (default: cores)
 * runs at once per language.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = [1, 2, 8];

const PROGRAMS: Record<Language, { code: string; stdin: string; plain: [string, string[]] }> = {
  javascript: {
    code: 'const n = Number(readLine()); let s = 0; for (let i = 1; i <= n; i++) s += i; console.log(s);',
    stdin: '1000\n',
    plain: [process.execPath, ['-e', 'let s = 0; for (let i = 1; i <= 1000; i++) s += i; console.log(s);']],
  },
  python: {
    code: 'n = int(input())\nprint(sum(range(1, n + 1)))',
    stdin: '1000\n',
    plain: ['python3', ['-c', 'print(sum(range(1, 1001)))']],
  },
};

const TESTS: ExerciseTest[] = Array.from({ length: 10 }, (_, i) => ({
  name: `t${i}`,
  hidden: i >= 5,
  input: `${i + 1}\n`,
  expected: `${(i + 1) * 2}`,
  call: null,
}));
const SOLUTION: Record<Language, string> = {
  python: 'print(int(input()) * 2)',
  javascript: 'console.log(Number(readLine()) * 2)',
};

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Runs one after another, each once the pool has all its workers ready again. */
async function warm(
  runner: CodeRunner,
  language: Language,
  once: () => Promise<void>,
): Promise<{ p50: number; p99: number; n: number }> {
  const latencies: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  const full = () => {
    const s = runner.stats()[language];
    return s.ready >= s.workers;
  };
  while (Date.now() < end) {
    while (!full()) await new Promise((resolve) => setTimeout(resolve, 5));
    const t0 = performance.now();
    await once();
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  return { p50: pct(latencies, 50), p99: pct(latencies, 99), n: latencies.length };
}

async function load(
  clients: number,
  once: () => Promise<void>,
): Promise<{ rate: number; p50: number; p99: number; n: number }> {
  const latencies: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        await once();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rate: latencies.length / elapsed, p50: pct(latencies, 50), p99: pct(latencies, 99), n: latencies.length };
}

function plainMs([command, args]: [string, string[]]): number {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    try {
      execFileSync(command, args, { stdio: 'ignore' });
    } catch {
      return NaN;
    }
    times.push(performance.now() - t0);
  }
  return pct(
    times.sort((a, b) => a - b),
    50,
  );
}

async function main() {
  const workers = Number(process.env.CODELAB_WORKERS ?? availableParallelism());
  const runner = new CodeRunner({ workers });
  const t0 = Date.now();
  await runner.start();
  console.log(
    `CodeLab sandbox bench: ${new Date().toISOString()}, Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' / ',
      )}; ${workers} workers per language (Python: as many spares), ${SECONDS} s per row, warm-up ${Date.now() - t0} ms\n`,
  );
  const runOnce = (language: Language) => async () => {
    const program = PROGRAMS[language];
    const result = await runner.runCode({ language, code: program.code, stdin: program.stdin });
    if (result.status !== 'ok' || result.stdout !== '500500\n')
      throw new Error(`${language}: ${JSON.stringify(result)}`);
  };
  console.log(
    'one run of a small program (sum 1..1000 from stdin) with a warm pool (each run waits until the pool is full again)',
  );
  console.log('language    p50 ms   p99 ms   runs');
  for (const language of ['javascript', 'python'] as Language[]) {
    const r = await warm(runner, language, runOnce(language));
    console.log(
      `${language.padEnd(11)} ${r.p50.toFixed(1).padStart(6)} ${r.p99.toFixed(1).padStart(8)} ${String(r.n).padStart(6)}`,
    );
  }
  console.log('\nruns of the same program back to back');
  console.log(
    'language    clients  runs/s   p50 ms   p99 ms   runs   plain interpreter p50 ms (process start included)',
  );
  for (const language of ['javascript', 'python'] as Language[]) {
    const plain = plainMs(PROGRAMS[language].plain);
    for (const clients of CLIENTS) {
      const r = await load(clients, runOnce(language));
      console.log(
        `${language.padEnd(11)} ${String(clients).padStart(7)} ${r.rate.toFixed(1).padStart(7)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.n).padStart(6)}   ${plain.toFixed(1)}`,
      );
    }
  }
  console.log('\nsubmissions judged (10 tests each, stdin/stdout; the judge without the job queue)');
  console.log('language    clients  judged/s   p50 ms   p99 ms   n');
  for (const language of ['javascript', 'python'] as Language[]) {
    for (const clients of CLIENTS) {
      const r = await load(clients, async () => {
        const judgement = await judge(runner, language, SOLUTION[language], TESTS);
        if (judgement.verdict !== 'accepted') throw new Error(`${language}: ${JSON.stringify(judgement)}`);
      });
      console.log(
        `${language.padEnd(11)} ${String(clients).padStart(7)} ${r.rate.toFixed(2).padStart(9)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.n).padStart(4)}`,
      );
    }
  }
  console.log('\n', JSON.stringify(runner.stats()));
  await runner.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
