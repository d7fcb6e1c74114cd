import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type express from 'express';
import { DeclaringRouter } from './http-router';
import { publicFiles } from './public-document';

/** The project's root: where package.json is, from src/ (tests) or dist/src/ (the build). */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

export interface WebPage {
  /** The folder under web/ that `npm run build` bundles into dist/web/. */
  name: string;
  /** Where the page's HTML is served. */
  paths: string[];
  /** Where its script and stylesheet are served (the page's HTML names them there). */
  assets: string;
  /** What the page may connect to besides its own origin's HTTP (`ws: wss:` for subscriptions). */
  connect?: string;
}

/**
 * One of our bundled pages (web/<name>): public like any login page, since what it shows comes from
 * the API, which checks the caller's rights on every call. A strict CSP: our own script only. The
 * page is not kept (no-store, as every answer); its script and stylesheet are, revalidated by ETag.
 */
export function webPage({ name, paths, assets, connect }: WebPage): DeclaringRouter {
  const csp = `default-src 'self'; img-src 'self' data:; connect-src 'self'${connect ? ` ${connect}` : ''}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
  const built = join(projectRoot(), 'dist', 'web', name);
  const strict = (_req: express.Request, res: express.Response, next: express.NextFunction) => {
    res.setHeader('content-security-policy', csp);
    next();
  };
  return new DeclaringRouter()
    .get(paths, strict, (_req, res) => res.sendFile(join(built, 'index.html')))
    .use(assets, strict, publicFiles(built, { redirect: false }));
}
