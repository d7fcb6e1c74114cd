import { dirname } from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { buildOpenApi } from '../../rest/openapi';
import { DeclaringRouter } from '../kernel/http-router';
import { publicDocument, publicFiles } from '../kernel/public-document';
import { routes, ruleMap } from './platform';

// The package's folder, found without loading its entry (which loads its 1.5 MB browser bundles into the server).
const swaggerUiFolder = dirname(require.resolve('swagger-ui-dist/package.json'));

const initializer = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
};`;

/**
 * `/openapi.json` and the Swagger UI at `/docs`, served from node_modules (no CDN), each with an
 * ETag to revalidate. The document is built at its first request, not at every start (a second of
 * CPU that most starts never use).
 */
export function serveDocs(schema: GraphQLSchema): DeclaringRouter {
  return new DeclaringRouter()
    .get(
      '/openapi.json',
      publicDocument('application/json', () => JSON.stringify(buildOpenApi(schema, routes, ruleMap))),
    )
    .get(
      '/docs/swagger-initializer.js',
      publicDocument('application/javascript', () => initializer),
    )
    .use('/docs', publicFiles(swaggerUiFolder, { index: 'index.html' }));
}
