import express, { type Request, type Response } from 'express';
import type { RouteContext } from '../kernel/area';
import type { Deps } from '../kernel/deps';
import { DeclaringRouter } from '../kernel/http-router';
import { formatMoney } from '../kernel/money';
import { PaymentStatus } from './payments.entity';
import { regionOfPayment } from './payment-region';
import { isOwnReturnUrl } from './return-url';
import {
  sandboxPageToken,
  SANDBOX_SIGNATURE_HEADER,
  type SandboxEventBody,
  sameText,
  signSandbox,
} from './providers/sandbox';

const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page that says why there is nothing to pay: a whole document, so that a screen reader finds its way as on the payment page. */
const refusal = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

/**
 * Payments' own paths: webhooks read the raw body (its signature is over the bytes), and the
 * sandbox's payment page.
 */
export function paymentsHttp(deps: Deps, context: RouteContext, sandboxSecret: () => string): DeclaringRouter {
  const router = new DeclaringRouter();
  // Checked again on the page: a payment stored before the check, or under other origins, sends no browser off them.
  const returnTo = (url: string | null) => (url && isOwnReturnUrl(deps.config, url) ? url : '');

  // The webhook: raw bytes first, the signature checked before anything is read or stored.
  const webhook = async (req: Request, res: Response) => {
    const ctx = await context(req);
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const query = Object.fromEntries(Object.entries(req.query).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >;
    const answer = await ctx.services.payments.webhook(String(req.params.provider), {
      method: req.method,
      rawBody,
      headers: req.headers,
      query,
    });
    if (answer.body === undefined) res.status(answer.status).end();
    else res.status(answer.status).json(answer.body);
  };
  router.post(
    '/payments/webhooks/:provider',
    express.raw({ type: () => true, limit: deps.config.BODY_LIMIT }),
    webhook,
  );
  router.get('/payments/webhooks/:provider', webhook);

  // The sandbox's payment page: Pay and Cancel post events the service signed for this payment only.
  router.get('/payments/sandbox/page.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-store').send(PAGE_SCRIPT);
  });
  router.get('/payments/sandbox/page.css', (_req, res) => {
    res
      .type('text/css')
      .send(
        'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem}#result{margin-top:1rem;font-weight:600}',
      );
  });
  router.get('/payments/sandbox/favicon.ico', (_req, res) => void res.status(204).end());
  router.get('/payments/sandbox/:id', async (req, res) => {
    res
      .set('Content-Security-Policy', PAGE_CSP)
      .set('X-Content-Type-Options', 'nosniff')
      .set('Referrer-Policy', 'no-referrer')
      .set('Cache-Control', 'no-store');
    const secret = sandboxSecret();
    const token = typeof req.query.t === 'string' ? req.query.t : '';
    const ctx = await context(req);
    const payment =
      token && sameText(token, sandboxPageToken(secret, req.params.id))
        ? await (await regionOfPayment(deps, req.params.id)).unit().services.payments.sandboxPayment(req.params.id)
        : null;
    if (!payment) return res.status(404).type('html').send(refusal('Not found', 'No such payment.'));
    // Only its payer pays: a signed-in caller who is not (the learner it is bought for) gets no Pay.
    const caller = ctx.auth.userId;
    if (caller && caller !== payment.payer.id)
      return res.status(403).type('html').send(refusal('Forbidden', 'Only the payer pays this payment.'));
    const event = (type: SandboxEventBody['type']) => {
      const body = JSON.stringify({
        id: `evt_${type}_${payment.id}`,
        type,
        paymentId: payment.id,
        amount: payment.amount,
        currency: payment.currency,
      } satisfies SandboxEventBody);
      return { body, signature: signSandbox(secret, body) };
    };
    const pay = event('payment.succeeded');
    const cancel = event('payment.canceled');
    const open = payment.status === PaymentStatus.pending;
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox payment</title><link rel="stylesheet" href="/payments/sandbox/page.css"><link rel="icon" href="/payments/sandbox/favicon.ico"></head>
<body><main>
<h1>Sandbox payment</h1>
<p>${escape(payment.product.title.en)}: <strong id="amount">${escape(formatMoney(payment.amount, payment.currency, 'en'))}</strong></p>
<p>Status: <span id="status">${payment.status}</span></p>
<div id="actions" data-pay="${escape(pay.body)}" data-pay-signature="${pay.signature}" data-cancel="${escape(cancel.body)}" data-cancel-signature="${cancel.signature}" data-return="${escape(returnTo(payment.returnUrl))}">
<button id="pay" type="button"${open ? '' : ' disabled'}>Pay</button><button id="cancel" type="button"${open ? '' : ' disabled'}>Cancel</button>
</div>
<p id="result" role="status"></p>
</main>
<script src="/payments/sandbox/page.js"></script>
</body></html>`);
  });
  return router;
}

/** The page's script (served from our origin: the CSP allows no inline script). */
const PAGE_SCRIPT = `(() => {
  const actions = document.getElementById('actions');
  const result = document.getElementById('result');
  const send = async (body, signature, done) => {
    for (const b of actions.querySelectorAll('button')) b.disabled = true;
    const response = await fetch('/payments/webhooks/sandbox', { method: 'POST', headers: { 'content-type': 'application/json', '${SANDBOX_SIGNATURE_HEADER}': signature }, body });
    result.textContent = response.ok ? done : 'Something went wrong (' + response.status + ')';
    document.getElementById('status').textContent = response.ok ? done.toLowerCase() : 'pending';
    if (response.ok && actions.dataset.return) setTimeout(() => { location.href = actions.dataset.return; }, 800);
  };
  document.getElementById('pay').addEventListener('click', () => send(actions.dataset.pay, actions.dataset.paySignature, 'Succeeded'));
  document.getElementById('cancel').addEventListener('click', () => send(actions.dataset.cancel, actions.dataset.cancelSignature, 'Canceled'));
})();
`;
