import 'reflect-metadata';
import { isNonNullType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { permissionsFor } from '../../src/permissions';
import { ruleMap } from '../../src/server/platform';
import { buildAppSchema } from '../../src/server/schema';

const ROOTS = new Set(['Query', 'Mutation', 'Subscription']);

describe('fields a rule may refuse', () => {
  it('are nullable on every type below the roots, so a refusal nulls the field and not its parent', async () => {
    const schema = await buildAppSchema();
    // The fields the permission middleware wraps: every field whose rule is not `allow` (deny by default included).
    const guarded = permissionsFor(schema, ruleMap) as Record<string, Record<string, unknown>>;
    const refusable = Object.entries(guarded)
      .filter(([type]) => !ROOTS.has(type) && isObjectType(schema.getType(type)))
      .flatMap(([type, fields]) => Object.keys(fields).map((field) => `${type}.${field}`));
    expect(refusable).toContain('Course.lessons');
    const nonNull = refusable.filter((name) => {
      const [type, field] = name.split('.');
      const object = schema.getType(type);
      return isObjectType(object) && isNonNullType(object.getFields()[field].type);
    });
    expect(
      nonNull.sort(),
      'make these nullable: a refusal of a non-null field empties its parent, up to the whole answer',
    ).toEqual([]);
  });
});
