import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApi } from '../../rest/openapi';
import { routes, ruleMap } from '../server/platform';
import { buildAppSchema, printAppSchema } from '../server/schema';

/** Writes the committed descriptions of the API: the GraphQL SDL and the OpenAPI of the REST table. */
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
      console.log('Wrote schema/schema.graphql and schema/openapi.json.');
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
