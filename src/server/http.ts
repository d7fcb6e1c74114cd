import type { RequestListener } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import express, { type ErrorRequestHandler, type Express, type Request } from 'express';
import type { GraphQLSchema } from 'graphql';
import { type RestEndpoint, restEndpoints, restRouter } from '../../rest/adapter';
import type { DirectRoute, JsonRoute } from '../kernel/area';
import { sizeInBytes } from '../kernel/body-limit';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { type DeclaredRoute, DeclaringRouter } from '../kernel/http-router';
import { pathMatcher } from '../kernel/path-match';
import { answerOtherMethods } from './allowed-methods';
import { apiIndex } from './api-index';
import { trustOf } from './chain/caller';
import { withDirectRoutes } from './direct';
import { serveDocs } from './docs';
import { graphExplorer } from './explorer';
import { graphqlEndpoint } from './graphql-endpoint';
import { metricsEndpoint } from './metrics/endpoint';
import { bodyLimits, httpRoutes, routes } from './platform';
import { unknownPath } from './server.errors';
import { behindChain } from './chain/admit';
import { answerError, answerGraphqlError } from './chain/errors';
import { jsonBodyOf, requestContext, requestSteps, routeContextOf, splitUrl } from './steps';

/**
 * Every request's way in: `/graphql`, the REST table and the areas' JSON routes are served before
 * express when their URL names them as the table does (server/direct.ts); express has the rest.
 * Both take the same steps first (server/steps.ts `requestSteps`).
 */
export function httpPipeline(
  deps: Deps,
  apollo: ApolloServer<Context>,
  schema: GraphQLSchema,
  areaJson: JsonRoute[],
): { listener: RequestListener; express: Express } {
  const graphql = graphqlEndpoint(deps, apollo);
  const json = areaJson.map((route) => behindChain(route, schema));
  const rest = restEndpoints(apollo, routes, sizeInBytes(deps.config.BODY_LIMIT), bodyLimits, schema);
  const areaRoutes = new DeclaringRouter();
  const routeContext = routeContextOf(deps);
  for (const areaHttp of httpRoutes) areaRoutes.mount(areaHttp(deps, routeContext, schema));
  const app = createExpressApp(deps, { graphql, json, rest, areaRoutes }, schema);
  return {
    listener: withDirectRoutes(
      deps,
      [graphql, ...json, ...rest.filter((endpoint) => !seenFirstBy(areaRoutes.declared, endpoint))],
      app,
    ),
    express: app,
  };
}

/** The express application: one pipeline for GraphQL, REST, health and docs. */
function createExpressApp(
  deps: Deps,
  served: { graphql: DirectRoute; json: JsonRoute[]; rest: RestEndpoint[]; areaRoutes: DeclaringRouter },
  schema: GraphQLSchema,
): Express {
  const { config } = deps;
  const context = (req: Request) => requestContext(deps, req);
  const app = express();
  app.disable('x-powered-by');
  // No ETag: answers are per person and change with each write, and hashing every body (a SHA-1
  // per response, GraphQL's POSTs included) cost 6 to 10% of a request's CPU time.
  app.set('etag', false);
  // The hops TRUST_PROXY names, for what express derives from them (req.protocol, req.hostname).
  app.set('trust proxy', trustOf(config));
  app.use(...requestSteps(deps));
  const routes = new DeclaringRouter().get('/metrics', metricsEndpoint(deps));
  const parseJson = jsonBodyOf(config);
  for (const route of served.json)
    routes.post(route.path, ...parseJson, (req, res) => route.handle(context(req), req.body, req, res));
  // The areas' own routes first: pages, files and webhooks owe nothing to the index, the docs, GraphQL or REST below.
  routes.mount(served.areaRoutes).mount(apiIndex()).mount(serveDocs(schema)).mount(graphExplorer(config));
  const { graphql } = served;
  routes.use(graphql.path, ...graphql.readBody!, (req, res, next) =>
    graphql.handle(context(req), req.body, req, res).catch(next),
  );
  routes.mount(restRouter(served.rest, context));
  app.use(routes.router);
  app.use(answerOtherMethods(routes.declared));
  app.use((_req, _res, next) => next(unknownPath()));
  app.use(errorHandler(deps));
  return app;
}

/**
 * Whether an area's own route may see a request of the table's `endpoint` before the table does
 * (express mounts the areas' routes first): such a row stays with express, in express's order.
 */
function seenFirstBy(declared: DeclaredRoute[], endpoint: RestEndpoint): boolean {
  const sample = endpoint.path.replace(/:\w+/g, 'x');
  return declared.some(
    (route) =>
      (route.prefix || route.method === endpoint.method) &&
      route.paths.some(
        (path) =>
          pathMatcher(path, route.prefix)(sample) ||
          (!route.prefix && !path.includes(':') && endpoint.match(path) !== false),
      ),
  );
}

/** Turns every failure outside GraphQL execution into the error object; nothing internal leaks. */
function errorHandler(deps: Deps): ErrorRequestHandler {
  return (error, req, res, _next) =>
    (splitUrl(req.originalUrl).path === '/graphql' ? answerGraphqlError : answerError)(deps.log, req.id, res, error);
}
