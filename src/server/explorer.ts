import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config';
import { DeclaringRouter } from '../kernel/http-router';
import { publicFiles } from '../kernel/public-document';
import { projectRoot } from '../kernel/web-page';

// GraphiQL sets styles through the CSSOM (allowed); its fonts are data: URLs in its stylesheet.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; font-src 'self' data:; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The GraphQL explorer: `GET /graphql` from a browser (Accept: text/html) answers the page that
 * `web/graph-explorer` builds into dist/web/graph-explorer, its assets under /graphql/explorer/.
 * Like a log-in page it is public; it lets in any signed-in account in development and admins only
 * in production, and every query it sends is checked by the API like any other client's.
 * Everything else on /graphql (POST, GET with a query, a client asking for JSON) goes on to Apollo.
 */
export function graphExplorer(config: Config): DeclaringRouter {
  const router = new DeclaringRouter();
  const built = join(projectRoot(), 'dist', 'web', 'graph-explorer');
  const access = config.NODE_ENV === 'production' ? 'admins' : 'signed-in';
  let page: string | undefined;
  const strict = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('content-security-policy', CSP);
    next();
  };
  router.get('/graphql', (req, res, next) => {
    const wantsPage =
      req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html' &&
      req.query.query === undefined;
    if (!wantsPage || !existsSync(join(built, 'index.html'))) return next();
    page ??= readFileSync(join(built, 'index.html'), 'utf8').replace('%ACCESS%', access);
    strict(req, res, () => res.type('html').send(page));
  });
  router.use('/graphql/explorer', strict, publicFiles(built, { redirect: false, index: false }));
  return router;
}
