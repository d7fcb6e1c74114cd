import type { Request } from 'express';
import { pathMatcher } from '../kernel/path-match';

/** One matcher per template: the templates are the application's routes, a bounded set. */
const matchers = new Map<string, (path: string) => boolean>();

function takes(template: string, path: string): boolean {
  let matches = matchers.get(template);
  if (!matches) matchers.set(template, (matches = pathMatcher(template, false)));
  return matches(path);
}

/**
 * The template of the route that answered a request (`/courses/:id`, never the path with its ids):
 * one served before express (`/ai/chat`, a REST row's `/courses/:id`), express's
 * (`/certificates/:id/pdf`), the mount path of a middleware that did (`/graphql`, `/docs`), or
 * `unmatched` (404s, CORS preflights): a bounded set, asked once the request is answered. Express
 * keeps `req.route` of a route that passed the request on: the explorer's `GET /graphql` hands a
 * client asking for JSON to the `/graphql` mount, and its path joined to the mount's read
 * `/graphql/graphql`. A route whose template does not take the request's path did not answer it.
 */
export function routeTemplate(req: Request): string {
  if (req.directRoute) return req.directRoute;
  const path: unknown = req.route?.path;
  const url = req.originalUrl ?? req.url;
  const query = url.indexOf('?');
  if (typeof path === 'string' && takes(req.baseUrl + path, query < 0 ? url : url.slice(0, query)))
    return req.baseUrl + path;
  return req.baseUrl || 'unmatched';
}
