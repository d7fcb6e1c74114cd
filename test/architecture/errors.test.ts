import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(__dirname, '..', '..', 'src');

/** A refusal written in place: an AppError built, or a kernel constructor handed its message or field errors. */
const INLINE_ERROR =
  /new AppError\(|\b(?:conflict|notFound|forbidden|unauthenticated)\(\s*['"`]|\bvalidationFailed\(\s*\[\s*\{/;

/** The files of src/<folder>/ that build errors themselves, and the line that does, apart from the errors files. */
function inlineErrors(root: string): string[] {
  const found: string[] = [];
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(root, folder.name), { recursive: true, encoding: 'utf8' })) {
      const path = join(folder.name, file);
      if (!file.endsWith('.ts') || basename(file).endsWith('.errors.ts') || path === join('kernel', 'errors.ts'))
        continue;
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (INLINE_ERROR.test(line)) found.push(`src/${path}:${index + 1}: ${line.trim()}`);
        });
    }
  }
  return found;
}

describe('named errors: each area says its refusals in its <area>.errors.ts', () => {
  it('leaves no AppError, and no kernel constructor with its message, written inline in an area, the kernel, the server or the rules', () => {
    expect(inlineErrors(src)).toEqual([]);
  });

  it('finds the refusals written in place, and only those (the check above can fail)', () => {
    const root = mkdtempSync(join(tmpdir(), 'inline-errors-'));
    try {
      mkdirSync(join(root, 'shop', 'jobs'), { recursive: true });
      mkdirSync(join(root, 'kernel'));
      writeFileSync(
        join(root, 'shop', 'shop.errors.ts'),
        "export const sold = () => new AppError('conflict', 'Sold.');\n",
      );
      writeFileSync(
        join(root, 'shop', 'shop.service.ts'),
        "if (sold) throw sold();\nif (!item) throw notFound('item');\n",
      );
      writeFileSync(
        join(root, 'shop', 'jobs', 'restock.ts'),
        "throw new AppError('conflict', 'Sold.');\nthrow validationFailed([{ field: 'sku', message: 'unknown' }]);\n",
      );
      writeFileSync(
        join(root, 'kernel', 'errors.ts'),
        "export const conflict = (message: string) => new AppError('conflict', message);\n",
      );
      writeFileSync(join(root, 'kernel', 'steps.ts'), 'next(forbidden(`No.`));\nnext(validationFailed(problems));\n');
      expect(inlineErrors(root).sort()).toEqual([
        'src/kernel/steps.ts:1: next(forbidden(`No.`));',
        "src/shop/jobs/restock.ts:1: throw new AppError('conflict', 'Sold.');",
        "src/shop/jobs/restock.ts:2: throw validationFailed([{ field: 'sku', message: 'unknown' }]);",
        "src/shop/shop.service.ts:2: if (!item) throw notFound('item');",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
