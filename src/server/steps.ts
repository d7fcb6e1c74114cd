import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import cors from 'cors';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { RouteContext } from '../kernel/area';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { jsonOnly } from '../kernel/json-body';
import { badPercentEncoding } from '../kernel/http.errors';
import { observeRequest } from './metrics/http';
import { routeTemplate } from './route-template';
import { createContext } from './context';
import { admit } from './chain/admit';
import { callerSteps } from './chain/caller';
import { countingStep, limitHeadersOn } from './chain/limits';

/*
 * The HTTP adapter of the request chain (server/chain/): the steps every request goes through,
 * whoever serves it (express, or a route served before it): its request id and log line, CORS, the
 * chain's caller and default limit, its query, its body, its context.
 */

/**
 * What every request goes through first, in this order, whichever way it comes in (express, or a
 * route served before it, the AI tutor's chat among them): its request id, log line and timing;
 * the headers of every answer; compression; CORS; the client's address; the token and its session; the rate limits; a
 * well-encoded query. Each way then reads its route's parameters and body. Written as express
 * middleware, and run by `runSteps` whichever way: a step added here runs for every request.
 */
export function requestSteps(deps: Deps): RequestHandler[] {
  const caller = callerSteps(deps);
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
    (req, res, next) => {
      // Express's own `req.ip` reads the same; routes served before express have none.
      Object.defineProperty(req, 'ip', {
        value: caller.address(req),
        enumerable: true,
        configurable: true,
        writable: true,
      });
      req.auth = caller.auth(req.headers.authorization);
      req.showLimit = limitHeadersOn(res);
      next();
    },
    countingStep(deps.limits),
    wellEncodedQuery,
  ];
}

/**
 * The one runner of a list of steps, over node's request and response (express mounts the list as
 * one step run by it, and the routes served before express call it): each step goes on when it
 * calls `next()`, and one that passes an error ends the run with it. Most call `next()` before they
 * return, and the next one runs at once, without waiting for a promise. A step that answers without
 * going on (a CORS preflight) leaves the run pending, as express leaves its chain.
 */
export async function runSteps(steps: RequestHandler[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  for (const step of steps) {
    let settled: { error?: unknown } | undefined;
    let resume: ((outcome: { error?: unknown }) => void) | undefined;
    const next: NextFunction = (error?: unknown) => {
      const outcome = { error };
      if (resume) resume(outcome);
      else settled = outcome;
    };
    void step(req as Request, res as Response, next);
    const outcome = settled ?? (await new Promise<{ error?: unknown }>((resolve) => (resume = resolve)));
    if (outcome.error) throw outcome.error;
  }
}

/** A list of steps as one express middleware, run by `runSteps`: express has no loop of its own over them. */
export const asOneStep =
  (steps: RequestHandler[]): RequestHandler =>
  (req, res, next) =>
    void runSteps(steps, req, res).then(() => next(), next);

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
    showLimit: req.showLimit,
  });
}

/** The context of an area's own route: once its declared rule, if any, has let the caller through. */
export const routeContextOf =
  (deps: Deps): RouteContext =>
  async (req, rule, args) => {
    const ctx = requestContext(deps, req);
    if (rule) await admit(ctx, rule, args);
    return ctx;
  };

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
