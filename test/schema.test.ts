import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../src/server/platform';
import { schemaFiles } from '../src/scripts/emit-schema';

const committed = (name: string) => readFileSync(join(__dirname, '..', 'schema', name), 'utf8');

describe('committed API descriptions', () => {
  it('schema/schema.graphql is what the code builds (run `npm run schema:emit` after changing the schema)', async () => {
    expect(committed('schema.graphql')).toBe((await schemaFiles())['schema.graphql']);
  });

  it('schema/openapi.json is what the route table and schema give (run `npm run schema:emit`)', async () => {
    expect(committed('openapi.json')).toBe((await schemaFiles())['openapi.json']);
  });

  it('describes every route of the REST table', () => {
    const paths = JSON.parse(committed('openapi.json')).paths;
    for (const route of routes) {
      expect(
        paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method],
        `${route.method} ${route.path}`,
      ).toBeDefined();
    }
  });
});
