import type { RequestListener } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import express, { type ErrorRequestHandler, type Express, type Request, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { type RestEndpoint, restEndpoints, restRouter } from '../../rest/adapter';
import type { DirectRoute, JsonRoute } from '../kernel/area';
import { sizeInBytes } from '../kernel/body-limit';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { rateLimitMiddleware } from '../kernel/rate-limit';
import { endedSessionsOf } from '../kernel/sessions';
import { authenticateHeader } from '../kernel/tokens';
import { answerOtherMethods } from './allowed-methods';
import { withDirectRoutes } from './direct';
import { serveDocs } from './docs';
import { graphExplorer } from './explorer';
import { graphqlEndpoint } from './graphql-endpoint';
import { metricsEndpoint } from './metrics/endpoint';
import { expressRoute, observeRequest } from './metrics/http';
import { bodyLimits, httpRoutes, routes } from './platform';
import { unknownPath } from './server.errors';
import { answerError, answerGraphqlError, compressAnswers, corsOf, jsonBodyOf, requestContext, splitUrl, trackRequest, wellEncodedQuery } from './steps';

/**
 * Every request's way in: `/graphql`, the REST table and the areas' JSON routes are served before
 * express when their URL names them as the table does (server/direct.ts); express has the rest.
 */
export function httpPipeline(deps: Deps, apollo: ApolloServer<Context>, schema: GraphQLSchema, json: JsonRoute[]): { listener: RequestListener; express: Express } {
  const graphql = graphqlEndpoint(deps, apollo);
  const rest = restEndpoints(apollo, routes, sizeInBytes(deps.config.BODY_LIMIT), bodyLimits, schema);
  const areaRouters = httpRoutes.map((areaRoutes) => areaRoutes(deps, (req) => requestContext(deps, req), schema));
  const app = createExpressApp(deps, { graphql, json, rest, areaRouters }, schema);
  return { listener: withDirectRoutes(deps, [graphql, ...json, ...rest.filter((endpoint) => !seenFirstBy(areaRouters, endpoint))], app), express: app };
}

/** The express application: one pipeline for GraphQL, REST, health and docs. */
function createExpressApp(deps: Deps, served: { graphql: DirectRoute; json: JsonRoute[]; rest: RestEndpoint[]; areaRouters: Router[] }, schema: GraphQLSchema): Express {
  const { config } = deps;
  const context = (req: Request) => requestContext(deps, req);
  const app = express();
  app.disable('x-powered-by');
  // No ETag: answers are per person and change with each write, and hashing every body (a SHA-1
  // per response, GraphQL's POSTs included) cost 6 to 10% of a request's CPU time.
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);
  app.use((req, res, next) => {
    req.id = trackRequest(deps.log, req, res, req.originalUrl);
    observeRequest(deps, req, res, () => expressRoute(req));
    next();
  });
  app.use(compressAnswers);
  app.use(corsOf(config));
  // A token whose session ended stands no more (DESIGN.md 4.4), checked in memory: no statement.
  const endedSessions = endedSessionsOf(deps);
  app.use((req, _res, next) => {
    req.auth = endedSessions.check(authenticateHeader(config, req.headers.authorization));
    next();
  });
  app.use(rateLimitMiddleware(deps.limits));
  app.use(wellEncodedQuery);
  app.get('/metrics', metricsEndpoint(deps));
  const parseJson = jsonBodyOf(config);
  for (const route of served.json) app.post(route.path, ...parseJson, (req, res) => route.handle(context(req), req.body, req, res));
  // The areas' own routes first: pages, files and webhooks owe nothing to the docs, GraphQL or REST below.
  for (const router of served.areaRouters) app.use(router);
  serveDocs(app, schema);
  app.use(graphExplorer(config));
  const { graphql } = served;
  app.use(graphql.path, ...graphql.readBody!, (req, res, next) => graphql.handle(context(req), req.body, req, res).catch(next));
  app.use(restRouter(served.rest, context));
  app.use(answerOtherMethods(app));
  app.use((_req, _res, next) => next(unknownPath()));
  app.use(errorHandler(deps));
  return app;
}

type RouterLayer = { match(path: string): boolean; route?: { path: string | string[]; _handlesMethod(method: string): boolean } };

/**
 * Whether an area's own route may see a request of the table's `endpoint` before the table does
 * (express mounts the areas' routes first; the checkout's reads its Idempotency-Key header): such a
 * row stays with express, in express's order.
 */
function seenFirstBy(routers: Router[], endpoint: RestEndpoint): boolean {
  const sample = endpoint.path.replace(/:\w+/g, 'x');
  return routers.some((router) =>
    (router.stack as unknown as RouterLayer[]).some((layer) => {
      if (layer.route && !layer.route._handlesMethod(endpoint.method.toLowerCase())) return false;
      return layer.match(sample) || [layer.route?.path ?? []].flat().some((path) => !path.includes(':') && endpoint.match(path) !== false);
    }),
  );
}

/** Turns every failure outside GraphQL execution into the error object; nothing internal leaks. */
function errorHandler(deps: Deps): ErrorRequestHandler {
  return (error, req, res, _next) => (splitUrl(req.originalUrl).path === '/graphql' ? answerGraphqlError : answerError)(deps.log, req.id, res, error);
}
