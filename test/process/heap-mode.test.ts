import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * HEAP_MODE in processes that churn their heap as a busy instance does (objects kept a while, then
 * dropped), read through V8's own account of each full collection (`--trace-gc`).
 */
const heapMode = join(__dirname, '..', '..', 'dist', 'src', 'server', 'heap-mode.js');

/** Churns for 5 s under the heap limit the service runs with, then prints its lowest RSS after the first 2 s. */
const CHURN = `
require(${JSON.stringify(heapMode)}).applyHeapMode(process.argv[1]);
const start = Date.now();
let kept = [];
let lowest = Infinity;
(function churn() {
  for (let i = 0; i < 20000; i++) kept.push({ i, text: 'item ' + i, list: [i] });
  if (kept.length > 600000) kept = kept.slice(300000);
  if (Date.now() - start > 2000) lowest = Math.min(lowest, process.memoryUsage().rss);
  if (Date.now() - start < 5000) setImmediate(churn);
  else console.log('lowest rss ' + lowest);
})();
`;

async function churn(mode: string): Promise<{ trace: string; lowestRss: number }> {
  const child = spawn(process.execPath, ['--max-old-space-size=512', '--trace-gc', '-e', CHURN, mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let trace = '';
  child.stdout.on('data', (chunk) => (trace += chunk));
  const status = await new Promise((resolve) => child.once('exit', resolve));
  expect(status, trace.slice(-2000)).toBe(0);
  return { trace, lowestRss: Number(/lowest rss (\d+)/.exec(trace)![1]) };
}

const fullCollections = (trace: string) => trace.match(/Mark-Compact.*/g) ?? [];

describe('HEAP_MODE', () => {
  it('lean: every full collection gives back what it emptied, and the process stays far lower than with V8 default', async () => {
    const [lean, v8Default] = await Promise.all([churn('lean'), churn('v8-default')]);

    // V8's own choices: no full collection reduces memory, and emptied pages are kept in its pool.
    const kept = fullCollections(v8Default.trace);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.filter((line) => line.includes('(reduce)'))).toEqual([]);
    expect(kept.some((line) => !/pooled: 0 MB/.test(line))).toBe(true);

    // Lean: each one reduces memory and leaves nothing pooled.
    const released = fullCollections(lean.trace);
    expect(released.length).toBeGreaterThan(2);
    for (const line of released) expect(line).toMatch(/Mark-Compact \(reduce\).*pooled: 0 MB/);
    expect(lean.lowestRss).toBeLessThan(v8Default.lowestRss / 2);
  }, 60_000);
});
