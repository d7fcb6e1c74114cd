import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { judge } from '../../src/codelab/codelab.judge';
import { CodeRunner, codeRunnerSettings } from '../../src/codelab/sandbox';

/**
 * A class that presses Run together, against real Pyodide processes: the runs are served by the
 * processes loaded ahead (CODELAB_PYTHON_SPARES of them beyond the workers), and no replacement
 * loads while the burst is being served, where it would take CPU from the runs.
 */

vi.setConfig({ testTimeout: 180_000 });

const dataDir = mkdtempSync(join(tmpdir(), 'codelab-pool-test-'));
let runner: CodeRunner;

beforeAll(async () => {
  runner = new CodeRunner(
    codeRunnerSettings({
      CODELAB_WORKERS: 1,
      CODELAB_PYTHON_SPARES: 3,
      CODELAB_TIME_LIMIT_MS: 2000,
      CODELAB_MEMORY_LIMIT_MB: 64,
      DATA_DIR: dataDir,
    }),
  );
  await runner.start();
}, 180_000);

afterAll(async () => {
  await runner?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a class pressing Run together', () => {
  it('keeps CODELAB_PYTHON_SPARES loaded processes beyond CODELAB_WORKERS, and says what loading one cost', () => {
    const python = runner.stats().python;
    expect(python).toMatchObject({ workers: 4, ready: 4, busy: 0, spawned: 4 });
    expect(python.startCpuMs).toBeGreaterThan(0);
  });

  it('answers a burst from the loaded processes, one each, and loads their replacements once the runs are over', async () => {
    const spawnedAtAnswer: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        runner.runCode({ language: 'python', code: 'print(sum(range(10)))' }).then((result) => {
          spawnedAtAnswer.push(runner.stats().python.spawned);
          return result;
        }),
      ),
    );
    expect(results.map((r) => [r.status, r.stdout])).toEqual(Array.from({ length: 3 }, () => ['ok', '45\n']));
    // While the burst was being served, nothing loaded: the first two answers came with 4 processes started in all.
    expect(spawnedAtAnswer.slice(0, 2)).toEqual([4, 4]);
    await until(() => runner.stats().python.ready === 4);
    expect(runner.stats().python).toMatchObject({ workers: 4, ready: 4, runs: 3, spawned: 7 });
  });
});

describe("a submission's tests: one fresh process for one person's code", () => {
  const MARK = 'import sys\nsys.codelab_mark = getattr(sys, "codelab_mark", []) + [input()]\n';

  it('runs them one after another in one process, each in a fresh namespace, each seeing its own input only', async () => {
    await until(() => runner.stats().python.ready === 4);
    const before = runner.stats().python;
    const results = await runner.runAll('python', [
      { code: `${MARK}kept = 1\nprint(repr(sys.stdin.read()))`, stdin: 'first\n' },
      { code: `${MARK}print("kept" in globals(), sys.codelab_mark)`, stdin: 'second\n' },
      { code: `${MARK}print(sys.codelab_mark)`, stdin: 'third\n' },
    ]);
    expect(results.map((r) => [r.status, r.stdout])).toEqual([
      ['ok', "''\n"],
      ['ok', "False ['first', 'second']\n"],
      ['ok', "['first', 'second', 'third']\n"],
    ]);
    const after = runner.stats().python;
    expect([after.runs - before.runs, after.replaced - before.replaced]).toEqual([3, 1]);
  });

  it("an earlier program's memory does not count against a later one's limit", async () => {
    const keep40Mb = 'def cycle():\n    pass\ndata = bytearray(40 << 20)\nprint(len(data) >> 20)';
    const results = await runner.runAll('python', [
      { code: keep40Mb, stdin: '' },
      { code: keep40Mb, stdin: '' },
    ]);
    expect(results.map((r) => [r.status, r.stdout])).toEqual([
      ['ok', '40\n'],
      ['ok', '40\n'],
    ]);
  });

  it('a program over the time limit ends its process, and each of the rest runs in a fresh one of its own', async () => {
    await until(() => runner.stats().python.ready === 4);
    const before = runner.stats().python;
    const results = await runner.runAll('python', [
      { code: `${MARK}print(sys.codelab_mark)`, stdin: 'first\n' },
      { code: `${MARK}while True: pass`, stdin: 'second\n' },
      { code: `${MARK}print(sys.codelab_mark)`, stdin: 'third\n' },
      { code: `${MARK}print(sys.codelab_mark)`, stdin: 'fourth\n' },
    ]);
    expect(results.map((r) => [r.status, r.stdout])).toEqual([
      ['ok', "['first']\n"],
      ['time_limit_exceeded', ''],
      ['ok', "['third']\n"],
      ['ok', "['fourth']\n"],
    ]);
    expect(runner.stats().python.replaced - before.replaced).toBe(3);
  });

  it("judging runs the visible tests first: what a program keeps of a hidden input never shows in a visible test's message", async () => {
    const tests = [
      { name: 'secret', hidden: true, input: 'S3CR3T\n', expected: 'x', call: null },
      { name: 'shown', hidden: false, input: 'open\n', expected: 'x', call: null },
      { name: 'secret-call', hidden: true, input: '["K3PT"]', expected: '"x"', call: 'keep' },
    ];
    const code =
      'import sys\nsys.seen = getattr(sys, "seen", []) + [sys.stdin.read().strip()]\nprint(sys.seen)\n' +
      'def keep(word):\n    sys.seen.append(word)\n    return "x"';
    const judgement = await judge(runner, 'python', code, tests);
    expect(judgement.verdict).toBe('wrong_answer');
    expect(judgement.results).toEqual([
      { name: 'secret', hidden: true, passed: false, message: null, timeMs: null },
      {
        name: 'shown',
        hidden: false,
        passed: false,
        message: `Wrong answer: expected "x", got "['open']"`,
        timeMs: expect.any(Number),
      },
      { name: 'secret-call', hidden: true, passed: true, message: null, timeMs: null },
    ]);
  });
});
