import type { RouteContext, RouteRule } from '../kernel/area';
import { DeclaringRouter } from '../kernel/http-router';
import { certificatesRules } from './certificates.rules';

/** The file is the certificate's: whoever may read the certificate (its learner) may have it. */
const readsCertificate: RouteRule = { rule: certificatesRules.Query.certificate, field: 'Query.certificate' };

/** `GET /certificates/:id/pdf`: a file, which the route table (JSON from GraphQL) cannot send. */
export function certificatePdfRouter(context: RouteContext): DeclaringRouter {
  const router = new DeclaringRouter();
  router.get('/certificates/:id/pdf', async (req, res) => {
    const ctx = await context(req, readsCertificate, { id: req.params.id });
    const pdf = await ctx.services.certificates.pdf(ctx.auth.userId!, req.params.id);
    res
      .status(200)
      .type('application/pdf')
      .setHeader('Content-Disposition', `inline; filename="certificate-${req.params.id}.pdf"`);
    res.end(pdf);
  });
  return router;
}
