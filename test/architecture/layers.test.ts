import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { areas } from '../../src/areas';
import { serviceRegistry, servicesOfArea } from '../../src/kernel/services';
import { viewsRead } from './relations';

const root = join(__dirname, '..', '..');

describe('layers (docs/architecture.md, rules in .dependency-cruiser.cjs)', () => {
  it('keeps the kernel free of areas, reaches areas through their list and their index.ts, keeps src/ out of rest/ and web/, and has no cycle', async () => {
    const { stdout } = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'depcruise'),
      ['src', 'rest', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout: string }) => error);
    const { summary } = JSON.parse(stdout) as {
      summary: { totalCruised: number; violations: { rule: { name: string }; from: string; to: string }[] };
    };
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });
});

describe('declared uses between areas (src/kernel/area.ts)', () => {
  const byName = new Map(areas.map((area) => [area.name, area]));
  const serviceOwner = new Map(
    areas.flatMap((area) => Object.keys(area.services ?? {}).map((service) => [service, area.name] as const)),
  );
  const filesOf = (name: string) =>
    readdirSync(join(root, 'src', name), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));

  /** What an area's folder actually reaches of other areas: the areas it imports, the owners of the services it calls and of the views it reads. */
  function reached(name: string): { imports: Set<string>; calls: Set<string> } {
    const imports = new Set<string>();
    const calls = viewsRead(name);
    for (const file of filesOf(name)) {
      const path = join(root, 'src', name, file);
      const text = readFileSync(path, 'utf8');
      for (const [, target] of text.matchAll(/from '(\.[^']+)'/g)) {
        const [top] = relative(join(root, 'src'), resolve(dirname(path), target)).split(sep);
        if (top !== name && byName.has(top)) imports.add(top);
      }
      for (const [, service] of text.matchAll(/services\??\.(\w+)/g)) {
        const owner = serviceOwner.get(service);
        if (owner && owner !== name) calls.add(owner);
      }
    }
    return { imports, calls };
  }

  it('names only areas that exist, and every area its folder imports or whose services it calls, and no other', () => {
    for (const area of areas) {
      const { imports, calls } = reached(area.name);
      const declared = [...(area.uses ?? [])].sort();
      expect(
        declared.filter((name) => !byName.has(name)),
        `${area.name} uses unknown areas`,
      ).toEqual([]);
      expect(
        declared,
        `the uses of ${area.name} (imports: ${[...imports]}; services called and views read: ${[...calls]})`,
      ).toEqual([...new Set([...imports, ...calls])].sort());
    }
  });

  it('has no cycle: no area uses, directly or not, an area that uses it', () => {
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) return void cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
      for (const used of byName.get(name)?.uses ?? []) visit(used, [...path, name]);
    };
    for (const area of areas) visit(area.name, []);
    expect(cycles).toEqual([]);
  });

  it("hands an area's service factories only the services of the areas it uses", () => {
    const units = serviceRegistry([
      { name: 'low', services: { low: () => 'low' } as never },
      {
        name: 'middle',
        uses: ['low'],
        services: {
          middle: (_uow: unknown, services: Record<string, unknown>) => `middle on ${String(services.low)}`,
        } as never,
      },
      {
        name: 'stray',
        services: {
          stray: (_uow: unknown, services: Record<string, unknown>) => `stray on ${String(services.low)}`,
        } as never,
      },
    ]);
    const services = units({} as never) as unknown as Record<string, string>;
    expect(services.middle).toBe('middle on low');
    expect(() => services.stray).toThrow(
      'The stray area uses the low service of low, which it does not declare in uses',
    );
  });

  it("hands an area's event handlers, jobs and personal-data handlers the same view, from the bag or from another area's view", () => {
    const units = serviceRegistry([
      { name: 'low', services: { low: () => 'low' } as never },
      { name: 'middle', uses: ['low'], services: { middle: () => 'middle' } as never },
      { name: 'stray', services: { stray: () => 'stray' } as never },
    ]);
    const bag = units({} as never);
    const stray = servicesOfArea(bag, 'stray') as unknown as Record<string, string>;
    expect(stray.stray).toBe('stray');
    expect(() => stray.low).toThrow('The stray area uses the low service of low, which it does not declare in uses');
    const middle = servicesOfArea(stray as never, 'middle') as unknown as Record<string, string>;
    expect([middle.middle, middle.low]).toEqual(['middle', 'low']);
    expect(() => middle.stray).toThrow('The middle area uses the stray service of stray');
    expect(() => servicesOfArea(bag, 'nowhere')).toThrow('No area is named nowhere');
  });
});
