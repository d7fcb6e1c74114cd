import { describe, expect, it } from 'vitest';
import { areas } from '../../src/areas';
import { namesRelation, sourcesOf, tableOwner, viewOwner } from './relations';

// No area reads or writes another area's tables, triggers included. What another
// area needs comes through a service, an event, or a view that the owning area declares in its
// migrations (reading a view is using its area: layers.test.ts counts it in `uses`). Relations
// between entities (a foreign key, the owner's exported entity as a relation) are declared
// dependencies and are not checked here.

/** The triggers a migration creates on `table`. */
const triggersOn = (text: string, table: string) =>
  [...text.matchAll(/create trigger "?(\w+)"?[^;]*?\bon\s+"?(\w+)"?/gi)]
    .filter(([, , on]) => on === table)
    .map(([, trigger]) => trigger);

/** Whether the owner of `table` took over (dropped) a trigger another area once put on it: an applied migration cannot be rewritten. */
const droppedBy = (owner: string, trigger: string, table: string) =>
  sourcesOf(owner).some(
    ({ text, migration }) =>
      migration &&
      new RegExp(`drop trigger if exists "?${trigger}"? on "?${table}\\b`, 'i').test(text.split('async down')[0]),
  );

describe("an area's SQL", () => {
  it('finds the tables and views of the areas', () => {
    expect(tableOwner.get('users')).toBe('auth');
    expect(tableOwner.get('lesson_completions')).toBe('progress');
    expect(viewOwner.get('learner_activity')).toBe('progress');
  });

  it("names no other area's table in a statement, and puts triggers on its own tables only", () => {
    const found: string[] = [];
    for (const { name } of areas) {
      for (const { file, text, migration } of sourcesOf(name)) {
        for (const [table, owner] of tableOwner) {
          if (owner === name) continue;
          const reaches = migration
            ? triggersOn(text, table).some((trigger) => !droppedBy(owner, trigger, table))
            : namesRelation(text, table);
          if (reaches) found.push(`${file} -> ${table} (${owner})`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
