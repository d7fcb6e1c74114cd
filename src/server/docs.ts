import { dirname } from 'node:path';
import express from 'express';
import type { GraphQLSchema } from 'graphql';
import { buildOpenApi } from '../../rest/openapi';
import { DeclaringRouter } from '../kernel/http-router';
import { routes, ruleMap } from './platform';

// The package's folder, found without loading its entry (which loads its 1.5 MB browser bundles into the server).
const swaggerUiFolder = dirname(require.resolve('swagger-ui-dist/package.json'));

const initializer = `window.onload = function () {
  window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });
};`;

/**
 * `/openapi.json` and the Swagger UI at `/docs`, served from node_modules (no CDN). The document is
 * built at its first request, not at every start (a second of CPU that most starts never use).
 */
export function serveDocs(schema: GraphQLSchema): DeclaringRouter {
  let document: ReturnType<typeof buildOpenApi> | undefined;
  return new DeclaringRouter()
    .get('/openapi.json', (_req, res) => {
      res.json((document ??= buildOpenApi(schema, routes, ruleMap)));
    })
    .get('/docs/swagger-initializer.js', (_req, res) => {
      res.type('application/javascript').send(initializer);
    })
    .use('/docs', express.static(swaggerUiFolder, { index: 'index.html' }));
}
