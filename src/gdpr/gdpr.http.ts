import { createReadStream, existsSync } from 'node:fs';
import type { RouteContext, RouteRule } from '../kernel/area';
import { DeclaringRouter } from '../kernel/http-router';
import type { Deps } from '../kernel/deps';
import { isId } from '../kernel/ids';
import { isAuthenticated } from '../permissions/rules';
import { GdprRequest, GdprRequestKind, GdprRequestStatus } from './gdpr-request.entity';
import { checkDownload } from './gdpr.links';
import { exportFile } from './gdpr.service';
import { expiredDownloadLink, invalidDownloadLink, unknownExport } from './gdpr.errors';

/**
 * `GET /gdpr/requests/:id/download?expires&signature`: the export's ZIP, until the link expires, for
 * the export's subject or its requester (a guardian who asked for a learner's), signed in: a
 * forwarded or leaked link alone opens nothing (401 without a token, 404 for anyone else's).
 */
/**
 * Signed in as the rules judge it (session, account, suspension); reading one's own privacy
 * request is allowed while an erasure is pending, and so is its download.
 */
const readsOwnRequest: RouteRule = { rule: isAuthenticated, field: 'Query.gdprRequest' };

export function gdprDownloadRouter(deps: Deps, context: RouteContext): DeclaringRouter {
  const router = new DeclaringRouter();
  router.get('/gdpr/requests/:id/download', async (req, res) => {
    const id = req.params.id;
    const ctx = await context(req, readsOwnRequest);
    const viewerId = ctx.auth.userId!;
    const check = checkDownload(deps.config.JWT_SECRET, id, req.query.expires, req.query.signature);
    if (check === 'invalid') throw invalidDownloadLink();
    if (check === 'expired') throw expiredDownloadLink();
    const request = isId(id)
      ? await ctx.em.findOne(GdprRequest, {
          id,
          kind: GdprRequestKind.export,
          status: GdprRequestStatus.ready,
          $or: [{ subject: viewerId }, { requester: viewerId }],
        })
      : null;
    const file = exportFile(deps.config.DATA_DIR, id);
    if (!request || !existsSync(file)) throw unknownExport();
    res
      .status(200)
      .type('application/zip')
      .setHeader('Content-Disposition', `attachment; filename="data-export-${id}.zip"`);
    createReadStream(file).pipe(res);
  });
  return router;
}
