import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  header,
  InvalidSignature,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type WebhookRequest,
} from './types';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

export interface SandboxEventBody {
  id: string;
  type: 'payment.succeeded' | 'payment.canceled' | 'refund.succeeded';
  paymentId: string;
  refundId?: string;
  amount: number;
  currency: string;
}

export function signSandbox(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A page token: who holds the redirect URL may pay or cancel that one payment. */
export function sandboxPageToken(secret: string, paymentId: string): string {
  return createHmac('sha256', secret).update(`page:${paymentId}`).digest('base64url');
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The embedded provider: the payment page is ours (`/payments/sandbox/:id`), and its Pay and Cancel
 * buttons post events signed with a secret only the service holds. Refunds are confirmed by a
 * signed webhook the service delivers to itself, as a real provider would.
 */
export function sandboxProvider(secret: string, baseUrl: string, deliver: (body: string) => void): PaymentProvider {
  return {
    name: 'sandbox',
    async start(payment: ProviderPayment) {
      const token = sandboxPageToken(secret, payment.id);
      return { redirectUrl: `${baseUrl}/payments/sandbox/${payment.id}?t=${token}`, providerRef: `sbx_${payment.id}` };
    },
    async refund(payment, refund) {
      const body = JSON.stringify({
        id: `evt_refund_${refund.id}`,
        type: 'refund.succeeded',
        paymentId: payment.id,
        refundId: refund.id,
        amount: refund.amount,
        currency: payment.currency,
      } satisfies SandboxEventBody);
      setImmediate(() => deliver(body));
      return { providerRef: `sbx_re_${refund.id}`, completed: false };
    },
    verify(request: WebhookRequest): ProviderEvent {
      const given = header(request, SANDBOX_SIGNATURE_HEADER);
      if (!given || !sameText(given, signSandbox(secret, request.rawBody.toString('utf8'))))
        throw new InvalidSignature();
      const body = JSON.parse(request.rawBody.toString('utf8')) as SandboxEventBody;
      const kind =
        body.type === 'payment.succeeded'
          ? 'payment_succeeded'
          : body.type === 'payment.canceled'
            ? 'payment_canceled'
            : body.type === 'refund.succeeded'
              ? 'refund_succeeded'
              : 'ignored';
      return {
        eventId: String(body.id),
        kind,
        paymentId: body.paymentId,
        refundId: body.refundId,
        amount: body.amount,
        currency: body.currency,
        providerCharge: `sbx_ch_${body.paymentId}`,
        raw: body,
      };
    },
    answer: () => ({ status: 200, body: { received: true } }),
  };
}
