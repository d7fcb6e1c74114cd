import type { Request } from 'express';
import { DeclaringRouter } from '../kernel/http-router';
import type { Context } from '../kernel/context';
import { enforce } from '../permissions/enforce';
import { certificatesRules } from './certificates.rules';

/** `GET /certificates/:id/pdf`: a file, which the route table (JSON from GraphQL) cannot send. */
export function certificatePdfRouter(context: (req: Request) => Context): DeclaringRouter {
  const router = new DeclaringRouter();
  router.get('/certificates/:id/pdf', async (req, res) => {
    const ctx = context(req);
    await enforce(certificatesRules.Query.certificate, ctx, 'Query.certificate', { id: req.params.id });
    const pdf = await ctx.services.certificates.pdf(ctx.auth.userId!, req.params.id);
    res
      .status(200)
      .type('application/pdf')
      .setHeader('Content-Disposition', `inline; filename="certificate-${req.params.id}.pdf"`);
    res.end(pdf);
  });
  return router;
}
