import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import { restRouter, sendError } from '../../rest/adapter';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import type { JsonRoute } from '../kernel/area';
import type { Config } from '../config';
import type { Logger } from 'pino';
import { authenticateHeader } from '../kernel/tokens';
import { createContext } from './context';
import { serveDocs } from './docs';
import { graphExplorer } from './explorer';
import { bodyLimits, httpRoutes, routes } from './platform';
import { graphqlBodyLimit, largestBodyLimit, rememberBodySize, sizeInBytes } from '../kernel/body-limit';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, databaseUnavailable, type ErrorBody, errorStatus, internalErrorBody, notFound, validationFailed } from '../kernel/errors';
import { rateLimitMiddleware } from '../kernel/rate-limit';

const REQUEST_ID = /^[\w.-]{1,64}$/;

export function requestContext(deps: Deps, req: Request): Context {
  return createContext(deps, { requestId: req.id, ip: req.ip ?? 'unknown', auth: req.auth, countedBuckets: req.countedBuckets });
}

/** The express application: one pipeline for GraphQL, REST, health and docs. */
export function createExpressApp(deps: Deps, apollo: ApolloServer<Context>, schema: GraphQLSchema, json: JsonRoute[]): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // No ETag: answers are per person and change with each write, and hashing every body (a SHA-1
  // per response, GraphQL's POSTs included) cost 6 to 10% of a request's CPU time.
  app.set('etag', false);
  app.set('trust proxy', config.TRUST_PROXY);
  app.use((req, res, next) => {
    req.id = trackRequest(deps.log, req, res, req.originalUrl);
    next();
  });
  app.use(corsOf(config));
  app.use((req, _res, next) => {
    req.auth = authenticateHeader(config, req.headers.authorization);
    next();
  });
  app.use(rateLimitMiddleware(deps.limits));
  app.use(wellEncodedQuery);
  const parseJson = jsonBodyOf(config);
  for (const route of json) app.post(route.path, parseJson, (req, res) => route.handle(requestContext(deps, req), req.body, req, res));
  // The areas' own routes first: pages, files and webhooks owe nothing to the docs, GraphQL or REST below.
  for (const areaRoutes of httpRoutes) app.use(areaRoutes(deps, (req) => requestContext(deps, req), schema));
  serveDocs(app, schema);
  app.use(graphExplorer(config));
  // BODY_LIMIT for every operation but the mutations that declare more (a 256 KiB project): the
  // parser takes the largest, then the operation's own limit decides.
  const bodyLimit = sizeInBytes(config.BODY_LIMIT);
  app.use(
    '/graphql',
    express.json({ limit: largestBodyLimit(bodyLimits, bodyLimit), verify: rememberBodySize }),
    graphqlBodyLimit(bodyLimits, bodyLimit),
    expressMiddleware(apollo, { context: async ({ req }) => requestContext(deps, req) }),
  );
  app.use(restRouter(apollo, routes, (req) => requestContext(deps, req), bodyLimit, bodyLimits, schema));
  app.use((_req, _res, next) => next(notFound('path')));
  app.use(errorHandler(deps));
  return app;
}

/**
 * A query string must be percent-encoded UTF-8: the parser would turn `%ED%B0%80` (a lone
 * surrogate) into replacement characters silently, where the same bytes in a path are refused.
 */
const wellEncodedQuery: RequestHandler = (req, _res, next) => {
  const start = req.url.indexOf('?');
  if (start < 0) return next();
  for (const part of req.url.slice(start + 1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      const name = part.split('=')[0];
      let field = 'query';
      try {
        field = decodeURIComponent(name);
      } catch {
        // the name itself is malformed: the query as a whole is named
      }
      return next(validationFailed([{ field, message: 'is not valid percent-encoded UTF-8' }]));
    }
  }
  next();
};

/** The CORS headers of every answer, and the answer to a preflight. */
export const corsOf = (config: Config) =>
  cors({
    origin: [config.WEB_ORIGIN, config.APP_ORIGIN],
    credentials: true,
    exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  });

/** A JSON body within BODY_LIMIT (larger ones are answered 413, malformed ones invalid_json). */
export const jsonBodyOf = (config: Config) => express.json({ limit: config.BODY_LIMIT });

/**
 * The request id (the client's X-Request-Id if well formed, else a new one) on the answer, and one
 * log line per request once answered: the request line without its query, the status and the time
 * taken. Bodies and tokens are never logged.
 */
export function trackRequest(log: Logger, req: IncomingMessage, res: ServerResponse, url: string): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  if (log.isLevelEnabled('info')) {
    const started = performance.now();
    res.once('finish', () => {
      const line = { req: { id, method: req.method, url: url.split('?')[0] }, res: { statusCode: res.statusCode }, responseTime: Math.round(performance.now() - started) };
      if (res.statusCode >= 500) log.error(line, 'request errored');
      else log.info(line, 'request completed');
    });
  }
  return id;
}

/** Turns every failure outside GraphQL execution into the error object; nothing internal leaks. */
function errorHandler(deps: Deps): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (req.originalUrl.split('?')[0] !== '/graphql') return answerError(deps.log, req.id, res, error);
    const body = toErrorBody(error);
    if (body === internalErrorBody) deps.log.error({ err: error, requestId: req.id }, 'request failed');
    if (res.headersSent) return res.end();
    // GraphQL clients read `errors`; the error object's fields stand beside it for everyone else.
    const { error: code, message, ...extra } = body;
    if (extra.retryAfter !== undefined) res.setHeader('Retry-After', extra.retryAfter);
    res.status(errorStatus[code]).json({ ...body, errors: [{ message, extensions: { code: code.toUpperCase(), ...extra } }] });
  };
}

/** The error object of a failed request (an answer already begun is only ended); internal failures are logged, never shown. */
export function answerError(log: Logger, requestId: string, res: ServerResponse, error: unknown): void {
  const body = toErrorBody(error);
  if (body === internalErrorBody) log.error({ err: error, requestId }, 'request failed');
  if (res.headersSent) res.end();
  else sendError(res, body);
}

function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return error.toBody();
  if (isDatabaseUnavailable(error)) return databaseUnavailable().toBody();
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return { error: 'invalid_json', message: 'The request body is not valid JSON.' };
  if (type === 'entity.too.large') return { error: 'payload_too_large', message: 'The request body is too large.' };
  // A path whose percent-encoding is not UTF-8 (`%ED%A0%80`, a lone surrogate): the router could not decode it.
  if (error instanceof URIError || (error as { status?: number }).status === 400) {
    return { error: 'validation_failed', message: 'The request path is malformed.', details: [{ field: 'path', message: 'is not valid percent-encoded UTF-8' }] };
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { error: 'validation_failed', message: 'The request body encoding is not supported.', details: [] };
  }
  return internalErrorBody;
}
