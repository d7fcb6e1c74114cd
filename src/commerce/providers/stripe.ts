import Stripe from 'stripe';
import { header, InvalidSignature, type PaymentProvider, type ProviderEvent, type WebhookRequest } from './types';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
  baseUrl: string;
}

/** Stripe Checkout through the official SDK; its API address is a setting, so tests run a server in its place. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = new URL(settings.apiUrl);
  const stripe = new Stripe(settings.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'http:' ? 80 : 443),
    protocol: api.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 1,
    timeout: 20_000,
  });
  return {
    name: 'stripe',
    async start(payment) {
      const back = payment.returnUrl ?? `${settings.baseUrl}/payments/${payment.id}`;
      const price = { currency: payment.currency.toLowerCase(), unit_amount: payment.amount, product_data: { name: payment.description } };
      // A subscription is a Stripe subscription: Stripe bills each period and its invoice.paid renews the entitlement.
      const mode = payment.interval
        ? {
            mode: 'subscription' as const,
            line_items: [{ quantity: 1, price_data: { ...price, recurring: { interval: payment.interval } } }],
            subscription_data: { metadata: { paymentId: payment.id } },
          }
        : { mode: 'payment' as const, line_items: [{ quantity: 1, price_data: price }], payment_intent_data: { metadata: { paymentId: payment.id } } };
      const session = await stripe.checkout.sessions.create(
        {
          ...mode,
          client_reference_id: payment.id,
          metadata: { paymentId: payment.id },
          success_url: back,
          cancel_url: back,
          expires_at: Math.floor(payment.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: `checkout_${payment.id}` },
      );
      return { redirectUrl: session.url ?? '', providerRef: session.id };
    },
    async refund(payment, refund) {
      const created = await stripe.refunds.create(
        { payment_intent: payment.providerCharge ?? undefined, amount: refund.amount, metadata: { refundId: refund.id, paymentId: payment.id } },
        { idempotencyKey: `refund_${refund.id}` },
      );
      return { providerRef: created.id, completed: false };
    },
    verify(request: WebhookRequest): ProviderEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(request.rawBody, header(request, 'stripe-signature') ?? '', settings.webhookSecret);
      } catch {
        throw new InvalidSignature();
      }
      const base = { eventId: event.id, raw: event };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          if (session.payment_status !== 'paid') return { ...base, kind: 'ignored' };
          const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
          return { ...base, kind: 'payment_succeeded', paymentId: session.metadata?.paymentId, providerRef: session.id, providerCharge: intent, amount: session.amount_total ?? undefined };
        }
        case 'checkout.session.async_payment_failed':
          return { ...base, kind: 'payment_failed', paymentId: event.data.object.metadata?.paymentId, providerRef: event.data.object.id };
        case 'checkout.session.expired':
          return { ...base, kind: 'payment_canceled', paymentId: event.data.object.metadata?.paymentId, providerRef: event.data.object.id };
        case 'refund.created':
        case 'refund.updated': {
          const refund = event.data.object;
          const kind = refund.status === 'succeeded' ? 'refund_succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'refund_failed' : 'ignored';
          return { ...base, kind, paymentId: refund.metadata?.paymentId, refundId: refund.metadata?.refundId, amount: refund.amount };
        }
        case 'invoice.paid': {
          // The first invoice is the checkout's own payment (checkout.session.completed applies it); later ones renew.
          const invoice = event.data.object;
          const paymentId = invoice.parent?.subscription_details?.metadata?.paymentId;
          if (invoice.billing_reason === 'subscription_create' || !paymentId || !invoice.id) return { ...base, kind: 'ignored' };
          return { ...base, kind: 'renewal_succeeded', paymentId, providerRef: invoice.id, amount: invoice.amount_paid };
        }
        case 'charge.dispute.created':
        case 'charge.dispute.closed': {
          // Disputes name the charge's PaymentIntent, which a payment keeps as its providerCharge.
          const dispute = event.data.object;
          const intent = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
          const kind = event.type === 'charge.dispute.created' ? 'chargeback' : dispute.status === 'won' ? 'chargeback_reversed' : dispute.status === 'lost' ? 'chargeback_lost' : 'ignored';
          if (!intent) return { ...base, kind: 'ignored' };
          return { ...base, kind, providerCharge: intent, disputeId: dispute.id, amount: dispute.amount };
        }
        default:
          return { ...base, kind: 'ignored' };
      }
    },
    answer: () => ({ status: 200, body: { received: true } }),
  };
}
