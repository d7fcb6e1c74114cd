import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { Router } from 'express';

/** The project's root: where package.json is, from src/ (tests) or dist/src/ (the build). */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const CSP = "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * /admin: the console `web/admin-console` builds into dist/web/admin-console (its assets under
 * /admin/console/). Public like any login page; the API checks the admin role on every call.
 */
export function adminConsolePage(): Router {
  const router = Router();
  const built = join(projectRoot(), 'dist', 'web', 'admin-console');
  const strict = (_req: express.Request, res: express.Response, next: express.NextFunction) => {
    res.setHeader('content-security-policy', CSP);
    next();
  };
  router.get(['/admin', '/admin/'], strict, (_req, res) => res.sendFile(join(built, 'index.html')));
  router.use('/admin/console', strict, express.static(built, { redirect: false }));
  return router;
}
