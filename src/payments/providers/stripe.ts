import Stripe from 'stripe';
import { header, InvalidSignature, type PaymentProvider, type ProviderEvent, type WebhookRequest } from './types';

/** The id of a field Stripe sends as an id or, expanded, as the object. */
const idOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
};

/**
 * What paid an invoice: its PaymentIntent and Charge. API versions before 2025-03-31 put them on the
 * invoice (`payment_intent`, `charge`); later ones list them in its payments (the paid default one).
 */
export function invoiceCharge(invoice: Stripe.Invoice): { intent?: string; charge?: string } {
  const legacy = invoice as unknown as { payment_intent?: unknown; charge?: unknown };
  const payments = invoice.payments?.data ?? [];
  const paid =
    payments.find((p) => p.status === 'paid' && p.is_default) ??
    payments.find((p) => p.status === 'paid') ??
    payments.find((p) => p.is_default);
  return {
    intent: idOf(legacy.payment_intent) ?? idOf(paid?.payment.payment_intent),
    charge: idOf(legacy.charge) ?? idOf(paid?.payment.charge),
  };
}

/** Our payment's id on a subscription's invoice: the subscription's metadata (under `parent` since API 2025-03-31). */
function invoicePaymentId(invoice: Stripe.Invoice): string | undefined {
  const legacy = invoice as unknown as { subscription_details?: { metadata?: Record<string, string> | null } | null };
  return invoice.parent?.subscription_details?.metadata?.paymentId ?? legacy.subscription_details?.metadata?.paymentId;
}

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
      const price = {
        currency: payment.currency.toLowerCase(),
        unit_amount: payment.amount,
        product_data: { name: payment.description },
      };
      // A subscription is a Stripe subscription: Stripe bills each period and its invoice.paid renews the entitlement.
      const mode = payment.interval
        ? {
            mode: 'subscription' as const,
            line_items: [{ quantity: 1, price_data: { ...price, recurring: { interval: payment.interval } } }],
            subscription_data: { metadata: { paymentId: payment.id } },
          }
        : {
            mode: 'payment' as const,
            line_items: [{ quantity: 1, price_data: price }],
            payment_intent_data: { metadata: { paymentId: payment.id } },
          };
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
      // A subscription's first charge is known from its first invoice.paid; until then there is nothing to refund against.
      const charge = payment.providerCharge;
      if (!charge) throw new Error(`the Stripe charge of payment ${payment.id} is not known yet`);
      const against = charge.startsWith('ch_') ? { charge } : { payment_intent: charge };
      const created = await stripe.refunds.create(
        { ...against, amount: refund.amount, metadata: { refundId: refund.id, paymentId: payment.id } },
        { idempotencyKey: `refund_${refund.id}` },
      );
      return { providerRef: created.id, completed: false };
    },
    verify(request: WebhookRequest): ProviderEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          request.rawBody,
          header(request, 'stripe-signature') ?? '',
          settings.webhookSecret,
        );
      } catch {
        throw new InvalidSignature();
      }
      const base = { eventId: event.id, raw: event };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          const session = event.data.object;
          if (session.payment_status !== 'paid') return { ...base, kind: 'ignored' };
          const intent =
            typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
          return {
            ...base,
            kind: 'payment_succeeded',
            paymentId: session.metadata?.paymentId,
            providerRef: session.id,
            providerCharge: intent,
            amount: session.amount_total ?? undefined,
            currency: session.currency?.toUpperCase(),
          };
        }
        case 'checkout.session.async_payment_failed':
          return {
            ...base,
            kind: 'payment_failed',
            paymentId: event.data.object.metadata?.paymentId,
            providerRef: event.data.object.id,
          };
        case 'checkout.session.expired':
          return {
            ...base,
            kind: 'payment_canceled',
            paymentId: event.data.object.metadata?.paymentId,
            providerRef: event.data.object.id,
          };
        case 'refund.created':
        case 'refund.updated': {
          const refund = event.data.object;
          const kind =
            refund.status === 'succeeded'
              ? 'refund_succeeded'
              : refund.status === 'failed' || refund.status === 'canceled'
                ? 'refund_failed'
                : 'ignored';
          return {
            ...base,
            kind,
            paymentId: refund.metadata?.paymentId,
            refundId: refund.metadata?.refundId,
            amount: refund.amount,
            currency: refund.currency?.toUpperCase(),
          };
        }
        case 'invoice.paid': {
          // The first invoice is the checkout's own payment (checkout.session.completed applies it, without a
          // PaymentIntent in subscription mode): it names the charge that refunds and disputes go by. Later ones renew.
          const invoice = event.data.object;
          const paymentId = invoicePaymentId(invoice);
          if (!paymentId || !invoice.id) return { ...base, kind: 'ignored' };
          const { intent, charge } = invoiceCharge(invoice);
          // Without either (API versions from 2025-03-31 send the invoice without its payments), complete() asks Stripe for them.
          if (invoice.billing_reason === 'subscription_create')
            return {
              ...base,
              kind: 'charge_identified',
              paymentId,
              providerRef: invoice.id,
              providerCharge: intent ?? charge,
            };
          return {
            ...base,
            kind: 'renewal_succeeded',
            paymentId,
            providerRef: invoice.id,
            providerCharge: intent ?? charge,
            amount: invoice.amount_paid,
            currency: invoice.currency?.toUpperCase(),
          };
        }
        case 'charge.dispute.created':
        case 'charge.dispute.closed': {
          // Disputes name the charge's PaymentIntent and Charge; a payment keeps one of them (the PaymentIntent when there is one) as its providerCharge.
          const dispute = event.data.object;
          const intent = idOf(dispute.payment_intent);
          const charge = idOf(dispute.charge);
          const kind =
            event.type === 'charge.dispute.created'
              ? 'chargeback'
              : dispute.status === 'won'
                ? 'chargeback_reversed'
                : dispute.status === 'lost'
                  ? 'chargeback_lost'
                  : 'ignored';
          const providerCharge = intent ?? charge;
          if (!providerCharge) return { ...base, kind: 'ignored' };
          return {
            ...base,
            kind,
            providerCharge,
            providerChargeAliases: intent && charge ? [charge] : undefined,
            disputeId: dispute.id,
            amount: dispute.amount,
            currency: dispute.currency?.toUpperCase(),
          };
        }
        default:
          return { ...base, kind: 'ignored' };
      }
    },
    async complete(event) {
      // An invoice (first or renewal) sent without what paid it: Stripe's invoice payments name it.
      if (
        (event.kind !== 'charge_identified' && event.kind !== 'renewal_succeeded') ||
        event.providerCharge ||
        !event.providerRef
      )
        return event;
      const payments = await stripe.invoicePayments.list({ invoice: event.providerRef, status: 'paid', limit: 10 });
      const paid = payments.data.find((p) => p.is_default) ?? payments.data[0];
      const providerCharge = idOf(paid?.payment.payment_intent) ?? idOf(paid?.payment.charge);
      if (providerCharge) return { ...event, providerCharge };
      // Paid out of band: no charge to record (a renewal still renews).
      return event.kind === 'charge_identified' ? { ...event, kind: 'ignored' } : event;
    },
    answer: () => ({ status: 200, body: { received: true } }),
  };
}
