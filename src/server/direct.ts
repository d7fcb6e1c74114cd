import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import proxyaddr from 'proxy-addr';
import type { DirectRoute } from '../kernel/area';
import type { Deps } from '../kernel/deps';
import { countRequest } from '../kernel/rate-limit';
import { endedSessionsOf } from '../kernel/sessions';
import { authenticateHeader } from '../kernel/tokens';
import { observeRequest } from './metrics/http';
import { answerError, compressAnswers, corsOf, jsonBodyOf, requestContext, splitUrl, trackRequest, wellEncodedQuery } from './steps';

/** What the steps below write on the request, as express's middleware does. */
type DirectRequest = IncomingMessage & Pick<Request, 'id' | 'auth' | 'countedBuckets' | 'body' | 'query' | 'params'> & { ip: string };

/**
 * Serves `/graphql`, the REST table and the areas' JSON routes (the AI tutor's chat) before express:
 * a request that one of them names goes through the same steps, in the same order, as it would in
 * the express pipeline (request id and log line, compression, CORS, the token, the rate limits, the query, the
 * body), with the same functions, and is answered by the route; every other request goes to `app`,
 * which also serves these routes when spelled otherwise. What express added to each request (its
 * router's layers, its request and response set-up) was a third of the AI proxy's CPU time.
 */
export function withDirectRoutes(deps: Deps, routes: DirectRoute[], app: Express): RequestListener {
  const find = routeFinder(routes);
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const compress = step(compressAnswers);
  const cors = step(corsOf(deps.config));
  const checkQuery = step(wellEncodedQuery);
  const jsonBody = jsonBodyOf(deps.config).map(step);
  const endedSessions = endedSessionsOf(deps);
  const readers = new Map(routes.map((route) => [route, route.readBody?.map(step) ?? jsonBody]));
  return (req, res) => {
    const url = req.url ?? '';
    const { path, search } = splitUrl(url);
    const found = find(req.method ?? '', path);
    if (!found || (search && !found.route.match) || (found.route.serves && !found.route.serves(req))) return app(req, res);
    const { route, params } = found;
    const request = req as DirectRequest;
    request.id = trackRequest(deps.log, req, res, url);
    observeRequest(deps, req, res, () => route.path);
    void (async () => {
      await compress(req, res);
      await cors(req, res);
      request.ip = proxyaddr(req, trust);
      request.auth = endedSessions.check(authenticateHeader(deps.config, req.headers.authorization));
      await countRequest(deps.limits, request, path, res);
      if (search) await checkQuery(req, res);
      request.query = search ? parseQuery(search.slice(1)) : {};
      request.params = params;
      for (const read of readers.get(route)!) await read(req, res);
      await route.handle(requestContext(deps, request as unknown as Request), request.body, req, res);
    })().catch((error: unknown) => (route.answerError ?? answerError)(deps.log, request.id, res, error));
  };
}

/**
 * The route a method and path name, with the path's parameters: the first of the routes in their
 * order that matches, as express's router picks. A path whose parameters are not well encoded is
 * left to express, which answers it.
 */
function routeFinder(routes: DirectRoute[]): (method: string, path: string) => { route: DirectRoute; params: Record<string, string> } | undefined {
  const byMethod = new Map<string, DirectRoute[]>();
  for (const route of routes) {
    const method = route.method ?? 'POST';
    byMethod.set(method, [...(byMethod.get(method) ?? []), route]);
  }
  return (method, path) => {
    for (const route of byMethod.get(method) ?? []) {
      if (!route.match) {
        if (route.path === path) return { route, params: {} };
        continue;
      }
      try {
        const matched = route.match(path);
        if (matched) return { route, params: matched.params };
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
}

/** An express middleware as a step that resolves when it calls `next()` and rejects with what it passes. */
function step(middleware: RequestHandler): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) =>
    new Promise((resolve, reject) => {
      const next: NextFunction = (error?: unknown) => (error ? reject(error) : resolve());
      void middleware(req as Request, res as Response, next);
    });
}
