import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { areas } from '../../src/areas';

const root = join(__dirname, '..', '..');

/** An area's source files, with their text; migrations apart (they name other areas' tables in foreign keys). */
export const sourcesOf = (area: string) =>
  readdirSync(join(root, 'src', area), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({
      file: `src/${area}/${file}`,
      text: readFileSync(join(root, 'src', area, file), 'utf8'),
      migration: file.startsWith('migrations'),
    }));

/** Which area owns each table (its entities' tableName, or a table its migrations create) and each view (its migrations). */
export const tableOwner = new Map<string, string>();
export const viewOwner = new Map<string, string>();
for (const { name } of areas) {
  for (const { text, migration } of sourcesOf(name)) {
    for (const [, table] of text.matchAll(/tableName: '([a-z_0-9]+)'/g)) tableOwner.set(table, name);
    if (!migration) continue;
    for (const [, table] of text.matchAll(/create table (?:if not exists )?"?([a-z_0-9]+)/gi))
      if (!tableOwner.has(table)) tableOwner.set(table, name);
    for (const [, view] of text.matchAll(/create (?:or replace )?view "?([a-z_0-9]+)/gi)) viewOwner.set(view, name);
  }
}

/** Whether SQL in `text` reads or writes `relation` (a table or a view) in a statement. */
export const namesRelation = (text: string, relation: string) =>
  new RegExp(`\\b(from|join|into|update|on)\\s+"?${relation}\\b"?`, 'i').test(text);

/** The areas whose declared views an area's runtime SQL reads. */
export function viewsRead(area: string): Set<string> {
  const owners = new Set<string>();
  for (const { text, migration } of sourcesOf(area)) {
    if (migration) continue;
    for (const [view, owner] of viewOwner) if (owner !== area && namesRelation(text, view)) owners.add(owner);
  }
  return owners;
}
