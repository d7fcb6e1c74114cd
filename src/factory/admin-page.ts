import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { Router } from 'express';

/** The project's root: where package.json is, from src/ (tests) or dist/src/ (the build). */
function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * /admin/factory: the page `npm run build` bundles from web/admin-factory. It is public like any
 * login page; what it shows comes from the API, which checks the role on every call.
 */
export function adminFactoryPage(): Router {
  const router = Router();
  router.use('/admin/factory', (_req, res, next) => {
    res.setHeader('content-security-policy', "default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'");
    next();
  });
  const built = join(projectRoot(), 'dist', 'web', 'admin-factory');
  router.get('/admin/factory', (_req, res) => res.sendFile(join(built, 'index.html')));
  router.use('/admin/factory', express.static(built, { redirect: false }));
  return router;
}
