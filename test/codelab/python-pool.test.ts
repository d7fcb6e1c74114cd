import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
