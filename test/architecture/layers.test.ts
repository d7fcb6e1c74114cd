import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

describe('layers (DESIGN.md 3a, rules in .dependency-cruiser.cjs)', () => {
  it('keeps the kernel free of areas, reaches areas through their list and their index.ts, and has no cycle', async () => {
    const { stdout } = await promisify(execFile)(join(root, 'node_modules', '.bin', 'depcruise'), ['src', 'rest', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stdout: string }) => error);
    const { summary } = JSON.parse(stdout) as { summary: { totalCruised: number; violations: { rule: { name: string }; from: string; to: string }[] } };
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });
});
