import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

/** Folders a clone does not hold (made by installing, building, running or testing) and the lock file, which is npm's. */
const NOT_OURS = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'reports', 'package-lock.json']);

/**
 * What a clone cannot follow: the team's notes in a folder beside the repository (a `shared` folder
 * that a relative path reaches from outside the repository, or that is not there; the pages'
 * `web/shared` is ours), their design file, and the numbers of the tracker's threads. The patterns
 * are written so that this file does not match them itself.
 */
const OUTSIDE: { kind: string; pattern: RegExp; leaves?: (file: string, found: string) => boolean }[] = [
  {
    kind: 'the notes beside the repository',
    pattern: /(?:\.\.\/)+shared\b/g,
    leaves: (file, found) => !inside(join(dirname(file), found)),
  },
  { kind: 'the design file', pattern: /\bdesign\.md\b/gi },
  { kind: 'a tracker thread', pattern: /\bissues?\s+#?\d+/gi },
];

/** Whether a path relative to the repository's top stays inside it and is there. */
const inside = (path: string) => !path.split(sep).includes('..') && existsSync(join(root, path));

/** The project's text files, relative to `dir`: a file holding a NUL byte is binary and skipped. */
function textFiles(dir: string, prefix = ''): { path: string; text: string }[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (NOT_OURS.has(path)) return [];
    if (entry.isDirectory()) return textFiles(dir, path);
    const bytes = readFileSync(join(dir, path));
    return bytes.includes(0) ? [] : [{ path, text: bytes.toString('utf8') }];
  });
}

/** Each line of the files that points outside the repository, as `path:line: what it points at`. */
function pointersOutside(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) =>
    text
      .split('\n')
      .flatMap((line, index) =>
        OUTSIDE.flatMap(({ kind, pattern, leaves }) =>
          [...line.matchAll(pattern)]
            .filter((m) => !leaves || leaves(path, m[0]))
            .map(() => `${path}:${index + 1}: ${kind}`),
        ),
      ),
  );
}

describe('the project stands on its own', () => {
  it('no file names the notes beside the repository, their design file or a tracker thread: a comment that needs a reason gives it', () => {
    expect(pointersOutside(textFiles(root))).toEqual([]);
  });

  it('finds each kind of pointer, in any case, and nothing else (the check above can fail)', () => {
    const files = [
      {
        path: 'src/a.ts',
        text: [
          '// see ' + '..' + '/shared/spec',
          '// the errors of ' + 'DESIGN' + '.md 4.2',
          '// asked for by ' + 'Issue' + ' 40',
        ].join('\n'),
      },
      {
        path: 'docs/b.md',
        text: 'a design, an issue with the tracker, issues of money, 40 issues\n(' + 'issue' + ' #12)',
      },
      { path: 'web/admin-console/c.ts', text: "import { el } from '.." + "/shared/dom';" },
      { path: 'web/d.ts', text: "import { el } from '.." + "/shared/dom';" },
    ];
    expect(pointersOutside(files)).toEqual([
      'src/a.ts:1: the notes beside the repository',
      'src/a.ts:2: the design file',
      'src/a.ts:3: a tracker thread',
      'docs/b.md:2: a tracker thread',
      'web/d.ts:1: the notes beside the repository',
    ]);
  });
});
