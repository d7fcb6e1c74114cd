import { describe, expect, it } from 'vitest';
import { areas } from '../../src/areas';
import { foreignEntityUses, type Source, sharedMigrationTables, tableLocks } from './ownership';
import { namesRelation, sourcesOf, tableOwner, viewOwner } from './relations';

// No area reads or writes another area's tables, triggers included, in SQL or through the ORM. What
// another area needs comes through a service, an event, or a view that the owning area declares in
// its migrations (reading a view is using its area: layers.test.ts counts it in `uses`). A relation
// to another area's entity names it ('User'): a foreign key, declared, not a way to query its rows.
// Each area creates its tables in its own migrations, where these checks read them.

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

describe("an area's entities", () => {
  it('uses no ORM entity of another area: imports none of its classes and names none in a query, a reference, a write or a lock', () => {
    expect(foreignEntityUses()).toEqual([]);
  });

  it('locks no whole table: a rule about one account locks that row, through its owner', () => {
    expect(tableLocks()).toEqual([]);
  });

  it("creates each area's tables in the area's own migrations, none in src/db/migrations", () => {
    expect(sharedMigrationTables()).toEqual([]);
  });

  it('finds each of these in code that does them', () => {
    const source: Source = {
      area: 'guardian',
      file: 'src/guardian/example.ts',
      migration: false,
      text: [
        "import { Role, User } from '../auth';",
        "import { type Course } from '../courses';",
        'const learner = await em.findOne(User, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });',
        "const course = em.getReference('Course', courseId);",
        "await em.execute('lock table users in share row exclusive mode');",
      ].join('\n'),
    };
    expect(foreignEntityUses([source]).map((f) => f.what)).toEqual([
      'imports User (auth)',
      'findOne(User) (auth)',
      'getReference(Course) (courses)',
    ]);
    expect(tableLocks([source]).map((f) => f.what)).toEqual(['lock table users']);
  });
});
