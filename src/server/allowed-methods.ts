import type { Express, RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { methodNotAllowed } from './server.errors';

/** What express's router keeps of a route or a mounted router (read, never changed). */
interface RouterLayer {
  route?: { path: string | string[] | RegExp; methods: Record<string, boolean | undefined> };
  /** A router mounted with `use` at the root: its routes carry whole paths. */
  slash?: boolean;
  handle: { stack?: RouterLayer[] };
}

interface KnownPath {
  matches(path: string): boolean;
  methods: string[];
}

/**
 * The last step before a 404 (DESIGN.md 4.2): a path that the application's routes take with
 * other methods is answered 405 `method_not_allowed` with `Allow` listing them; any other path
 * goes on to the 404. The routes are read once, at the first request that gets this far, when
 * every one is in place; each is matched as express matches it (any case, a trailing slash or not).
 */
export function answerOtherMethods(app: Express): RequestHandler {
  let known: KnownPath[] | undefined;
  return (req, res, next) => {
    known ??= knownPaths((app as unknown as { router: { stack: RouterLayer[] } }).router.stack);
    const methods = new Set(known.filter((route) => route.matches(req.path)).flatMap((route) => route.methods));
    if (methods.size === 0) return next();
    // Express answers HEAD with a GET route.
    if (methods.has('GET')) methods.add('HEAD');
    res.setHeader('Allow', [...methods].sort().join(', '));
    next(methodNotAllowed());
  };
}

function knownPaths(stack: RouterLayer[]): KnownPath[] {
  return stack.flatMap((layer): KnownPath[] => {
    if (layer.slash && layer.handle.stack) return knownPaths(layer.handle.stack);
    const route = layer.route;
    if (!route || route.path instanceof RegExp) return [];
    const matchers = [route.path].flat().map((path) => match(path, { sensitive: false, end: true, trailing: true, decode: false }));
    const methods = Object.keys(route.methods)
      .filter((method) => route.methods[method] && method !== '_all')
      .map((method) => method.toUpperCase());
    return [{ matches: (path) => matchers.some((matches) => matches(path) !== false), methods }];
  });
}
