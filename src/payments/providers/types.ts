/** What the service hands a provider to start or refund a payment. */
export interface ProviderPayment {
  id: string;
  amount: number;
  currency: string;
  description: string;
  providerRef: string | null;
  providerCharge: string | null;
  returnUrl: string | null;
  succeededAt: Date | null;
  expiresAt: Date;
  /** A subscription's billing period (a provider that bills again renews it by webhook); null for one-off purchases. */
  interval: 'month' | 'year' | null;
}

export interface ProviderRefund {
  id: string;
  amount: number;
  reason: string;
  /** True when this refund takes the payment's whole remaining amount. */
  full: boolean;
}

/** A provider's event in our words. */
export interface ProviderEvent {
  eventId: string;
  kind:
    | 'payment_succeeded'
    | 'payment_failed'
    | 'payment_canceled'
    | 'refund_succeeded'
    | 'refund_failed'
    /** A subscription billed again: `paymentId` names the first payment, `providerRef` the new charge (an invoice). */
    | 'renewal_succeeded'
    /**
     * The provider names the charge of a payment after the fact (a Stripe subscription's first
     * invoice: its checkout completes without one): `providerCharge` is recorded on `paymentId`.
     */
    | 'charge_identified'
    /** The card holder disputed the charge: the provider took `amount` back. */
    | 'chargeback'
    /** The dispute was decided for us: the provider gave the money back. */
    | 'chargeback_reversed'
    /** The dispute was decided against us: the money stays with the card holder (taken at `chargeback`). */
    | 'chargeback_lost'
    | 'ignored';
  paymentId?: string;
  /** Found by the provider's reference when the event does not carry our id. */
  providerRef?: string;
  providerCharge?: string;
  /** Other names of the same charge a payment may be known by (a Stripe dispute names its PaymentIntent and its Charge). */
  providerChargeAliases?: string[];
  refundId?: string;
  /** The provider's dispute, for chargebacks. */
  disputeId?: string;
  /** What the provider says was paid, checked against the payment. */
  amount?: number;
  /** The ISO 4217 code of `amount`, upper case: an amount means nothing without it (500 JPY is not 500 USD). */
  currency?: string;
  raw: unknown;
}

export interface WebhookRequest {
  method: string;
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string>;
}

/** What applying an event came to; each provider answers it in its own words. */
export type WebhookOutcome = 'applied' | 'replayed' | 'unknown_payment' | 'wrong_amount' | 'already_final';

export interface WebhookAnswer {
  status: number;
  body?: unknown;
}

export class InvalidSignature extends Error {
  constructor(message = 'The webhook signature does not verify.') {
    super(message);
  }
}

export interface PaymentProvider {
  name: string;
  /** Currencies it takes; undefined: any. */
  currencies?: string[];
  start(payment: ProviderPayment): Promise<{ redirectUrl: string; providerRef: string }>;
  /** Asks for the refund; `completed` when the provider's answer already settles it (no webhook follows). */
  refund(payment: ProviderPayment, refund: ProviderRefund): Promise<{ providerRef: string | null; completed: boolean }>;
  /** Verifies the raw request; throws InvalidSignature before anything is read from it. */
  verify(request: WebhookRequest): ProviderEvent;
  /**
   * Completes a verified event with what only the provider's API says (asked before the event's
   * transaction opens); throws when the API does not answer, so the provider sends the event again.
   */
  complete?(event: ProviderEvent): Promise<ProviderEvent>;
  answer(outcome: WebhookOutcome): WebhookAnswer;
  /** The answer to a request whose signature does not verify. */
  refused?(): WebhookAnswer;
}

export const header = (request: WebhookRequest, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};
