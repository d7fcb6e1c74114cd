import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingDefaults } from '../../src/config';
import { settingsReference } from '../../src/config.docs';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)];
const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);

/** What a clone holds at its top level: a backticked path that starts with one of these names a file of the project. */
const NOT_IN_A_CLONE = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'reports']);
const topLevel = readdirSync(root).filter((name) => !NOT_IN_A_CLONE.has(name));

/** A page without its fenced code blocks: a `#` there is a shell comment, a `[x](y)` there is code. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** The anchors a page's headings get, as GitHub makes them (a repeated heading gets -1, -2...). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** A path with a `..` segment: it climbs out of a folder, and from the top, out of the repository. */
const climbs = (path: string) => path.split('/').includes('..');

/** What a relative link of `file` does not reach: a target outside the repository, a missing file or a missing heading. */
function brokenLinks(
  file: string,
  text: string,
  exists: (path: string) => boolean,
  pageOf: (path: string) => string,
): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][\w+.-]*:/i.test(target)) continue;
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved = path ? join(dirname(file), decodeURIComponent(path)) : file;
    if (isAbsolute(path) || climbs(resolved)) broken.push(`${target}: outside the repository`);
    else if (!exists(resolved)) broken.push(`${target}: no such file`);
    else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(pageOf(resolved)).has(anchor))
      broken.push(`${target}: no such heading`);
  }
  return broken;
}

/** The backticked paths of `text` that name a file of the project (by their first segment) or climb out of a folder. */
function namedPaths(text: string, names: string[]): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1])
    .filter((path) => climbs(path) || (path.includes('/') && names.includes(path.replace(/^\.\//, '').split('/')[0])));
}

describe('the docs say what the code does', () => {
  it('docs/settings.md is what the settings schema gives (run `npm run docs:settings`)', () => {
    expect(read('docs/settings.md')).toBe(settingsReference(settingDefaults()));
  });

  it.each(docs)('every npm command in %s is a script of package.json', (file) => {
    const named = [...read(file).matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it.each(docs)('every REST call that %s shows with curl is an operation of openapi.json', (file) => {
    const paths = JSON.parse(read('schema/openapi.json')).paths as Record<string, Record<string, unknown>>;
    const templates = Object.keys(paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
    const calls = [...read(file).matchAll(/curl[^\n]*http:\/\/localhost:4000(\/[^\s?'"]*)/g)].map((m) => ({
      method: (/-X (\w+)/.exec(m[0])?.[1] ?? 'GET').toLowerCase(),
      path: m[1],
    }));
    const unknown = calls.filter(
      ({ method, path }) => !templates.some((t) => t.pattern.test(path) && paths[t.path][method]),
    );
    expect(unknown).toEqual([]);
  });

  it.each(docs)(
    'every relative link of %s reaches a file of the repository, and a heading of it when it names one',
    (file) => {
      expect(brokenLinks(file, read(file), (path) => existsSync(join(root, path)), read)).toEqual([]);
    },
  );

  it.each(docs)('every backticked path of %s is a file or folder inside the repository', (file) => {
    const named = namedPaths(read(file), topLevel);
    const outside = named.filter(climbs);
    const missing = named.filter(
      (path) => !climbs(path) && !/[<*]|\.\.\./.test(path) && !existsSync(join(root, path.replace(/\/$/, ''))),
    );
    expect({ outside, missing }).toEqual({ outside: [], missing: [] });
  });

  it('finds links and paths that leave the repository or lead nowhere (the checks above can fail)', () => {
    const pages: Record<string, string> = {
      'README.md': '# Run it\n',
      'docs/a.md': '# Errors\n## Order of checks\n## Order of checks\n```sh\n# not a heading\n```\n',
    };
    const exists = (path: string) => path in pages || path === 'docs' || path === 'src';
    const page = ['[a](docs/a.md)', '[b](docs/a.md#order-of-checks-1)', '[c](#run-it)', '[d](https://example.org/x)'];
    const wrong = [
      '[e](../elsewhere/x.md)',
      '[f](docs/b.md)',
      '[g](docs/a.md#not-a-heading)',
      '[h](/etc/passwd)',
      '[i](#nowhere)',
    ];
    expect(brokenLinks('README.md', [...page, ...wrong].join('\n'), exists, (path) => pages[path])).toEqual([
      '../elsewhere/x.md: outside the repository',
      'docs/b.md: no such file',
      'docs/a.md#not-a-heading: no such heading',
      '/etc/passwd: outside the repository',
      '#nowhere: no such heading',
    ]);
    expect(
      namedPaths(
        '`src/x.ts` `../elsewhere/y.md` `./docs/a.md` `docs/..` `application/json` `/auth/me` `data/outbox/` `.../reject`',
        ['src', 'docs'],
      ),
    ).toEqual(['src/x.ts', '../elsewhere/y.md', './docs/a.md', 'docs/..']);
  });
});
