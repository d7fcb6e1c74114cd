import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * One real HTTP server standing in for Stripe's, VNPay's and MoMo's APIs: it records each call and
 * answers as they do. `refuse` makes every answer an error.
 */
export async function startProviderServer() {
  const seen: SeenCall[] = [];
  /** `invoicePayments`: Stripe's invoice payments by invoice id (GET /v1/invoice_payments?invoice=). */
  const state = {
    refuse: false,
    invoicePayments: {} as Record<string, { payment_intent?: string; charge?: string }[]>,
  };
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      seen.push({ method: req.method ?? '', path, headers: req.headers, body });
      const send = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (state.refuse)
        return send(400, {
          error: { type: 'invalid_request_error', message: 'refused' },
          resultCode: 99,
          vnp_ResponseCode: '99',
        });
      n += 1;
      if (path === '/v1/invoice_payments') {
        const invoice = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('invoice') ?? '';
        const data = (state.invoicePayments[invoice] ?? []).map((payment, i) => ({
          id: `inpay_${invoice}_${i}`,
          object: 'invoice_payment',
          invoice,
          is_default: i === 0,
          status: 'paid',
          payment: { type: payment.payment_intent ? 'payment_intent' : 'charge', ...payment },
        }));
        return send(200, { object: 'list', url: '/v1/invoice_payments', has_more: false, data });
      }
      if (path === '/v1/checkout/sessions')
        return send(200, {
          id: `cs_test_${n}`,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/cs_test_${n}`,
        });
      if (path === '/v1/refunds') {
        const form = new URLSearchParams(body);
        // As Stripe does: a refund names what it refunds.
        if (!form.get('payment_intent') && !form.get('charge'))
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'parameter_missing',
              message: 'You must provide either a charge or a payment_intent.',
            },
          });
        return send(200, {
          id: `re_test_${n}`,
          object: 'refund',
          status: 'pending',
          amount: Number(form.get('amount')),
        });
      }
      if (path === '/v2/gateway/api/create') {
        const json = JSON.parse(body) as { orderId: string };
        return send(200, {
          resultCode: 0,
          message: 'Thành công.',
          payUrl: `https://test-payment.momo.test/pay/${json.orderId}`,
        });
      }
      if (path === '/v2/gateway/api/refund')
        return send(200, { resultCode: 0, message: 'Thành công.', transId: 900000 + n });
      if (path === '/vnpay/api')
        return send(200, {
          vnp_ResponseCode: '00',
          vnp_Message: 'Refund success',
          vnp_TransactionNo: String(700000 + n),
        });
      send(404, { error: 'no such path' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
