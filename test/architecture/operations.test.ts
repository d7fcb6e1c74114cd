import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/server/platform';
import { buildAppSchema } from '../../src/server/schema';

describe("the areas' REST operations (.graphql files beside each area)", () => {
  it('are valid against the schema, one named operation per path', async () => {
    const schema = await buildAppSchema();
    const problems = routes.flatMap((route) =>
      validate(schema, parse(route.operation)).map((e) => `${route.method} ${route.path}: ${e.message}`),
    );
    expect(problems).toEqual([]);
    const paths = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
