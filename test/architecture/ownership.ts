import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Finds where an area reaches another area's data other than through the owner's service: the
// owner's ORM entity classes used in its code, a `lock table`, and the area tables that the
// shared migrations folder creates instead of the owner's own. Reads files only, so it can count
// on any checkout.

const root = join(__dirname, '..', '..');
const src = join(root, 'src');

/** The areas: the folders of src/ whose index.ts defines one. */
export const areaNames = readdirSync(src, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => {
    try {
      return readFileSync(join(src, name, 'index.ts'), 'utf8').includes('defineArea(');
    } catch {
      return false;
    }
  });

export interface Source {
  area: string;
  file: string;
  text: string;
  migration: boolean;
}

const filesOf = (area: string): Source[] =>
  readdirSync(join(src, area), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({
      area,
      file: `src/${area}/${file}`,
      text: readFileSync(join(src, area, file), 'utf8'),
      migration: file.startsWith('migrations'),
    }));

export const sources = areaNames.flatMap(filesOf);

/** Each ORM entity class and the area that declares it. */
export const entityOwner = new Map<string, string>();
/** Each table an area's entity maps, and the area. */
export const entityTableOwner = new Map<string, string>();
for (const { area, text } of sources) {
  for (const [, name] of text.matchAll(/@Entity\([\s\S]*?\bclass (\w+)/g)) entityOwner.set(name, area);
  for (const [, table] of text.matchAll(/@Entity\(\{[^}]*tableName: '([a-z_0-9]+)'/g))
    entityTableOwner.set(table, area);
}

/** The names a file imports as values (not `import type`, not `type X`) from another area's folder. */
function valueImports(source: Source): { name: string; from: string }[] {
  const found: { name: string; from: string }[] = [];
  for (const [, typeOnly, names, target] of source.text.matchAll(
    /import (type )?\{([^}]*)\} from '\.\.\/([a-z-]+)[^']*'/g,
  )) {
    if (typeOnly || target === source.area || !areaNames.includes(target)) continue;
    for (const spec of names.split(',').map((s) => s.trim())) {
      if (!spec || spec.startsWith('type ')) continue;
      found.push({ name: spec.split(/\s+as\s+/)[0], from: target });
    }
  }
  return found;
}

/** The ORM calls that name an entity first, by its class or its name: find, references, writes, locks, query builders. */
const ormCall =
  /\b(find|findOne|findOneOrFail|findAll|findAndCount|findByCursor|count|getReference|ref|rel|reference|nativeUpdate|nativeDelete|insert|insertMany|upsert|upsertMany|create|createQueryBuilder|qb|getRepository|lock|merge|map)\(\s*'?(\w+)'?\s*[,)]/g;

export interface Finding {
  file: string;
  what: string;
}

/** Another area's entity class used in an area's code: imported as a value, or named in an ORM call. */
export function foreignEntityUses(list: Source[] = sources): Finding[] {
  const found: Finding[] = [];
  for (const source of list) {
    if (source.migration) continue;
    for (const { name, from } of valueImports(source))
      if (entityOwner.get(name) === from) found.push({ file: source.file, what: `imports ${name} (${from})` });
    for (const [, call, name] of source.text.matchAll(ormCall)) {
      const owner = entityOwner.get(name);
      if (owner && owner !== source.area) found.push({ file: source.file, what: `${call}(${name}) (${owner})` });
    }
  }
  return found;
}

/** The runtime `lock table` statements of the areas: a whole table locked, its owner's or another's. */
export function tableLocks(list: Source[] = sources): Finding[] {
  return list
    .filter((source) => !source.migration)
    .flatMap((source) =>
      [...source.text.matchAll(/lock table "?(\w+)/gi)].map(([, table]) => ({
        file: source.file,
        what: `lock table ${table}`,
      })),
    );
}

/** The tables of areas that src/db/migrations creates: each area creates its own in its migrations folder. */
export function sharedMigrationTables(): Finding[] {
  const dir = join(src, 'db', 'migrations');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/create table (?:if not exists )?"?([a-z_0-9]+)/gi)]
        .filter(([, table]) => entityTableOwner.has(table))
        .map(([, table]) => ({ file: `src/db/migrations/${file}`, what: `${table} (${entityTableOwner.get(table)})` })),
    );
}
