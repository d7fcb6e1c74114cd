import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

/** The most lines a source file holds: past it, a file holds more than one concern and is split along its seams. */
const MAX_LINES = 500;

/** The folders of the service's and the pages' source: the areas, the kernel, the server, REST and web/. */
const SOURCE = ['src', 'rest', 'web'];

/** Each TypeScript file under a folder, relative to the repository's top. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));
}

/** Its lines: a last line without a line feed is one, the line feed that ends a file opens none. */
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('source files (docs/architecture.md)', () => {
  it(`holds no file over ${MAX_LINES} lines under ${SOURCE.join('/, ')}/`, () => {
    const files = SOURCE.flatMap(typeScriptFiles);
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({ file, lines: linesOf(readFileSync(join(root, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(over).toEqual([]);
  });
});
