import type { RequestListener } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Express, Request, RequestHandler } from 'express';
import type { DirectRoute } from '../kernel/area';
import type { Deps } from '../kernel/deps';
import { answerError } from './chain/errors';
import { countedBefore, holdCallerCount } from './chain/limits';
import { jsonBodyOf, requestContext, runSteps, splitUrl } from './steps';

/**
 * Serves `/graphql`, the REST table and the areas' JSON routes (the AI tutor's chat) before express:
 * a request that one of them names goes through the steps every request takes (`steps`, the list
 * express runs too, with the same runner), then its query, parameters and body, and is answered
 * by the route; every other request goes to `app`, which also serves these routes when spelled
 * otherwise. What express added to each request (its router's layers, its request and response
 * set-up) was a third of the AI proxy's CPU time.
 */
export function withDirectRoutes(
  deps: Deps,
  steps: RequestHandler[],
  routes: DirectRoute[],
  app: Express,
): RequestListener {
  const find = routeFinder(routes);
  const jsonBody = jsonBodyOf(deps.config);
  const readers = new Map(routes.map((route) => [route, route.readBody ?? jsonBody]));
  return (req, res) => {
    const { path, search } = splitUrl(req.url ?? '');
    const found = find(req.method ?? '', path);
    if (!found || (search && !found.route.match) || (found.route.serves && !found.route.serves(req)))
      return app(req, res);
    const { route, params } = found;
    const request = req as Request;
    request.directRoute = route.path;
    if (route.countsCaller) holdCallerCount(req);
    void (async () => {
      await runSteps(steps, req, res);
      request.query = search ? parseQuery(search.slice(1)) : {};
      request.params = params;
      await runSteps(readers.get(route)!, req, res);
      await route.handle(requestContext(deps, request), request.body, req, res);
    })().catch(async (error: unknown) =>
      (route.answerError ?? answerError)(deps.log, request.id, res, await countedBefore(deps.limits, req, error)),
    );
  };
}

/**
 * The route a method and path name, with the path's parameters: the first of the routes in their
 * order that matches, as express's router picks. A path whose parameters are not well encoded is
 * left to express, which answers it.
 */
function routeFinder(
  routes: DirectRoute[],
): (method: string, path: string) => { route: DirectRoute; params: Record<string, string> } | undefined {
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
