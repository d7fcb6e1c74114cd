import type { RequestHandler } from 'express';
import type { DeclaredRoute } from '../kernel/http-router';
import { pathMatcher } from '../kernel/path-match';
import { methodNotAllowed } from '../kernel/http.errors';

/**
 * The last step before a 404 (docs/errors.md): a path that the application's routes take with
 * other methods is answered 405 `method_not_allowed` with `Allow` listing them; any other path
 * goes on to the 404. The routes are the application's declared ones (middleware under a prefix
 * names no method), each matched as express matches it (any case, a trailing slash or not).
 */
export function answerOtherMethods(declared: DeclaredRoute[]): RequestHandler {
  const known = declared
    .filter((route) => route.method !== '*')
    .map((route) => ({ method: route.method, matches: route.paths.map((path) => pathMatcher(path, false)) }));
  return (req, res, next) => {
    const methods = new Set<string>(
      known.filter((route) => route.matches.some((matches) => matches(req.path))).map((route) => route.method),
    );
    if (methods.size === 0) return next();
    // Express answers HEAD with a GET route.
    if (methods.has('GET')) methods.add('HEAD');
    res.setHeader('Allow', [...methods].sort().join(', '));
    next(methodNotAllowed());
  };
}
