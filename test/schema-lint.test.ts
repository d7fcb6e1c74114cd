import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');
const cli = join(root, 'node_modules', 'graphql-schema-linter', 'lib', 'cli.js');

interface Finding {
  message: string;
  rule: string;
  location: { line: number };
}

/**
 * The linter as `npx graphql-schema-linter` runs it, with graphql-schema-linter.config.js (it exits 1
 * on findings), on the committed schema or on SDL given on its standard input.
 */
function lint(sdl?: string): Promise<Finding[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [cli, '--format', 'json', ...(sdl ? ['--stdin'] : [])],
      { cwd: root },
      (error, stdout) => {
        if (error && error.code !== 1) return reject(error);
        resolve((JSON.parse(stdout) as { errors: Finding[] }).errors);
      },
    );
    child.stdin!.end(sdl ?? '');
  });
}

describe('graphql-schema-linter', () => {
  it('finds nothing in schema/schema.graphql with the committed configuration', async () => {
    const findings = await lint();
    expect(findings.map((f) => `${f.location.line}: ${f.message} (${f.rule})`)).toEqual([]);
  });

  it('finds what its rules are there for: a lowercase enum value, a PageInfo short of the Relay fields', async () => {
    const findings = await lint(`
      "The root"
      type Query {
        "A page"
        page: PageInfo!
        "A role"
        role: Role!
      }
      "Where a page stands"
      type PageInfo {
        "Whether more follow"
        hasNextPage: Boolean!
      }
      "A role"
      enum Role {
        "Learns"
        learner
      }
    `);
    expect(findings.map((f) => f.rule).sort()).toEqual(['enum-values-all-caps', 'relay-page-info-spec']);
  });
});
