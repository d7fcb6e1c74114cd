import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApi } from '../../rest/openapi';
import { routes, ruleMap } from '../server/platform';
import { buildAppSchema, printAppSchema } from '../server/schema';
import { withReasonsTable } from './reasons-doc';

/** The committed descriptions of the API: the GraphQL SDL and the OpenAPI of the REST table (with docs/errors.md's table of reasons, written beside them). */
export async function schemaFiles() {
  const schema = await buildAppSchema();
  return {
    'schema.graphql': printAppSchema(schema),
    'openapi.json': `${JSON.stringify(buildOpenApi(schema, routes, ruleMap), null, 2)}\n`,
  };
}

if (require.main === module) {
  const root = join(__dirname, '..', '..', '..');
  schemaFiles()
    .then((files) => {
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, 'schema', name), text);
      const errors = join(root, 'docs', 'errors.md');
      writeFileSync(errors, withReasonsTable(readFileSync(errors, 'utf8')));
      console.log("Wrote schema/schema.graphql, schema/openapi.json and docs/errors.md's table of reasons.");
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
