import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

describe('schema/openapi.json', () => {
  it("passes Redocly's recommended rules without an error", { timeout: 120_000 }, async () => {
    // The CLI as a user runs it, on this Node; no telemetry and no update check leave the machine.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(root, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        'schema/openapi.json',
        '--extends=recommended',
        '--format=json',
      ],
      {
        cwd: root,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: Problem[] };
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });
});
