import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import cors from 'cors';
import express, { type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { challenge, sendError } from '../../rest/adapter';
import { sendJson } from '../kernel/json-answer';
import type { Config } from '../config';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { AppError, databaseUnavailable, type ErrorBody, errorStatus, internalErrorBody } from '../kernel/errors';
import { jsonOnly } from '../kernel/json-body';
import { countRequest } from '../kernel/rate-limit';
import { endedSessionsOf } from '../kernel/sessions';
import { authenticateHeader } from '../kernel/tokens';
import { observeRequest } from './metrics/http';
import { routeTemplate } from './route-template';
import { clientAddress, trustOf } from './client-address';
import { createContext } from './context';
import { badPercentEncoding } from '../kernel/http.errors';

/*
 * The steps every request goes through, whoever serves it (express, or a route served before it):
 * its request id and log line, CORS, its query, its body, its context, its failure's answer.
 */

/**
 * What every request goes through first, in this order, whichever way it comes in (express, or a
 * route served before it, the AI tutor's chat among them): its request id, log line and timing;
 * the headers of every answer; compression; CORS; the client's address; the token and its session; the rate limits; a
 * well-encoded query. Each way then reads its route's parameters and body. Written as express
 * middleware, which express mounts as they are and the routes served before it run in turn.
 */
export function requestSteps(deps: Deps): RequestHandler[] {
  const trust = trustOf(deps.config);
  // A token whose session ended stands no more (docs/auth.md), checked in memory: no statement.
  const endedSessions = endedSessionsOf(deps);
  return [
    (req, res, next) => {
      req.id = trackRequest(deps.log, req, res, req.url);
      observeRequest(deps, req, res, () => routeTemplate(req));
      // No answer is to be sniffed into another type; none is to be kept unless it says so (the
      // public documents, kernel/public-document.ts): most depend on the caller, its token and rights.
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
    compressAnswers,
    corsOf(deps.config),
    (req, _res, next) => {
      // Express's own `req.ip` reads the same; routes served before express have none.
      Object.defineProperty(req, 'ip', {
        value: clientAddress(req, trust),
        enumerable: true,
        configurable: true,
        writable: true,
      });
      req.auth = endedSessions.check(authenticateHeader(deps.config, req.headers.authorization));
      next();
    },
    (req, res, next) => void countRequest(deps.limits, req, splitUrl(req.url).path, res).then(() => next(), next),
    wellEncodedQuery,
  ];
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** A request URL's path and its query string (`?` included; empty when there is none). */
export function splitUrl(url: string): { path: string; search: string } {
  const start = url.indexOf('?');
  return start < 0 ? { path: url, search: '' } : { path: url.slice(0, start), search: url.slice(start) };
}

export function requestContext(deps: Deps, req: Request): Context {
  return createContext(deps, {
    requestId: req.id,
    ip: req.ip ?? 'unknown',
    auth: req.auth,
    countedBuckets: req.countedBuckets,
  });
}

/**
 * A query string must be percent-encoded UTF-8: the parser would turn `%ED%B0%80` (a lone
 * surrogate) into replacement characters silently, where the same bytes in a path are refused.
 */
export const wellEncodedQuery: RequestHandler = (req, _res, next) => {
  const { search } = splitUrl(req.url);
  if (!search) return next();
  for (const part of search.slice(1).split('&')) {
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
      return next(badPercentEncoding(field));
    }
  }
  next();
};

/**
 * Answers over 1 KB in gzip or Brotli when the client accepts it (the OpenAPI description is 300
 * KB). A stream marked `Cache-Control: no-transform` (the AI tutor's server-sent events) is left
 * as is, so each event still leaves when it is written.
 */
export const compressAnswers: RequestHandler = compression({ threshold: '1kb' });

/** The CORS headers of every answer, and the answer to a preflight. */
export const corsOf = (config: Config) =>
  cors({
    origin: [config.WEB_ORIGIN, config.APP_ORIGIN],
    credentials: true,
    exposedHeaders: ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'],
    maxAge: 600,
  });

/** A JSON body within BODY_LIMIT (larger ones are answered 413, malformed ones invalid_json, others 415). */
export const jsonBodyOf = (config: Config): RequestHandler[] => [jsonOnly, express.json({ limit: config.BODY_LIMIT })];

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
      const line = {
        req: { id, method: req.method, url: splitUrl(url).path },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (res.statusCode >= 500) log.error(line, 'request errored');
      else log.info(line, 'request completed');
    });
  }
  return id;
}

/** A failure of `/graphql` before execution: the error object, with `errors` beside it for GraphQL clients. */
export function answerGraphqlError(log: Logger, requestId: string, res: ServerResponse, error: unknown): void {
  const body = toErrorBody(error);
  if (body === internalErrorBody) log.error({ err: error, requestId }, 'request failed');
  if (res.headersSent) return void res.end();
  const { error: code, message, ...extra } = body;
  if (extra.retryAfter !== undefined) res.setHeader('Retry-After', extra.retryAfter);
  if (code === 'unauthenticated') challenge(res);
  sendJson(res, errorStatus[code], {
    ...body,
    errors: [{ message, extensions: { code: code.toUpperCase(), ...extra } }],
  });
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
    return {
      error: 'validation_failed',
      message: 'The request path is malformed.',
      details: [{ field: 'path', message: 'is not valid percent-encoded UTF-8' }],
    };
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { error: 'validation_failed', message: 'The request body encoding is not supported.', details: [] };
  }
  return internalErrorBody;
}
