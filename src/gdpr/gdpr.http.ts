import { createReadStream, existsSync } from 'node:fs';
import { type Request, Router } from 'express';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { AccountStatus } from '../kernel/domain';
import { AppError, notFound, unauthenticated } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { accountSuspended } from '../permissions/rules';
import { GdprRequest, GdprRequestKind, GdprRequestStatus } from './gdpr-request.entity';
import { checkDownload } from './gdpr.links';
import { exportFile } from './gdpr.service';

/**
 * `GET /gdpr/requests/:id/download?expires&signature`: the export's ZIP, until the link expires, for
 * the export's subject or its requester (a guardian who asked for a learner's), signed in: a
 * forwarded or leaked link alone opens nothing (401 without a token, 404 for anyone else's).
 */
export function gdprDownloadRouter(deps: Deps, context: (req: Request) => Context): Router {
  const router = Router();
  router.get('/gdpr/requests/:id/download', async (req, res) => {
    const id = req.params.id;
    const ctx = context(req);
    const viewerId = await signedIn(ctx);
    const check = checkDownload(deps.config.JWT_SECRET, id, req.query.expires, req.query.signature);
    if (check === 'invalid') throw new AppError('forbidden', 'This download link is not valid.');
    if (check === 'expired') throw new AppError('forbidden', 'This download link has expired; ask for a new export.');
    const request = isId(id)
      ? await ctx.em.findOne(GdprRequest, {
          id,
          kind: GdprRequestKind.export,
          status: GdprRequestStatus.ready,
          $or: [{ subject: viewerId }, { requester: viewerId }],
        })
      : null;
    const file = exportFile(deps.config.DATA_DIR, id);
    if (!request || !existsSync(file)) throw notFound('export');
    res.status(200).type('application/zip').setHeader('Content-Disposition', `attachment; filename="data-export-${id}.zip"`);
    createReadStream(file).pipe(res);
  });
  return router;
}

/** The caller's id, as the rules judge a token (its session, its account); a suspended account gets account_suspended. */
async function signedIn(ctx: Context): Promise<string> {
  if (ctx.auth.error) throw ctx.auth.error;
  if (!ctx.auth.userId) throw unauthenticated();
  const viewer = await ctx.viewer();
  if (!viewer || viewer.status === AccountStatus.erased) throw unauthenticated('This account no longer exists.');
  if (viewer.status === AccountStatus.suspended) throw accountSuspended();
  return viewer.id;
}
