import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingDefaults } from '../../src/config';
import { settingsReference } from '../../src/config.docs';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)];
const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);

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
    const templates = Object.keys(paths).map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`) }));
    const calls = [...read(file).matchAll(/curl[^\n]*http:\/\/localhost:4000(\/[^\s?'"]*)/g)].map((m) => ({ method: (/-X (\w+)/.exec(m[0])?.[1] ?? 'GET').toLowerCase(), path: m[1] }));
    const unknown = calls.filter(({ method, path }) => !templates.some((t) => t.pattern.test(path) && paths[t.path][method]));
    expect(unknown).toEqual([]);
  });

  it.each(docs)('every file or folder of the project that %s names exists', (file) => {
    const named = [...read(file).matchAll(/`((?:src|test|bench|docs|web|rest|scripts|schema|deploy|patches|\.ci)\/[\w./-]*[\w/])`/g)].map((m) => m[1]);
    const missing = named.filter((path) => !/[<*]/.test(path) && !existsSync(join(root, path.replace(/\/$/, ''))));
    expect(missing).toEqual([]);
  });
});
