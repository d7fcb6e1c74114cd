import type { RouteContext } from '../kernel/area';
import { DeclaringRouter } from '../kernel/http-router';
import { isId } from '../kernel/ids';
import { translator } from './reports.i18n';
import { invalidUnsubscribeLink } from './reports.errors';

/** `GET /guardian/reports/unsubscribe?guardian&kind&signature`: the mailed link, no token needed. */
export function reportsUnsubscribeRouter(context: RouteContext): DeclaringRouter {
  const router = new DeclaringRouter();
  router.get('/guardian/reports/unsubscribe', async (req, res) => {
    const { guardian, kind, signature } = req.query;
    if (typeof guardian !== 'string' || !isId(guardian) || typeof kind !== 'string' || typeof signature !== 'string') {
      throw invalidUnsubscribeLink();
    }
    const ctx = await context(req);
    if (!(await ctx.services.reports.unsubscribe(guardian, kind, signature))) throw invalidUnsubscribeLink();
    res.status(200).json({ unsubscribed: kind, message: translator('en')('unsubscribed') });
  });
  return router;
}
