import { createHash } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ageOn } from '../auth';
import type { User } from '../auth';
import type { Deps } from '../kernel/deps';
import { Role } from '../kernel/domain';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Product } from '../catalog';
import { balances, revenueSince, summed } from './ledger';
import {
  IdempotencyKey,
  Payment,
  PaymentStatus,
  type PurchaseRequest,
  type PurchaseRequestStatus,
} from './payments.entity';
import { PaymentEvents } from './payment-events';
import { PurchaseRequests } from './purchase-requests';
import {
  badIdempotencyKey,
  badReturnUrl,
  checkoutNotAccepted,
  idempotencyKeyReused,
  idempotencyKeyUnderWay,
  learnerNotFound,
  notAPriceOfProduct,
  paymentNotFound,
  productNotForSale,
  providerCurrency,
  providerNotFound,
  providerNotOffered,
  webhookNotCompleted,
} from './payments.errors';
import type { Providers } from './providers';
import {
  InvalidSignature,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type WebhookAnswer,
  type WebhookOutcome,
  type WebhookRequest,
} from './providers/types';
import { isOwnReturnUrl } from './return-url';
import { regionOfEvent, regionOfPayment } from './payment-region';

export interface CheckoutInput {
  productId: string;
  priceId: string;
  provider?: string | null;
  returnUrl?: string | null;
  learnerId?: string | null;
}

/** What a checkout answers: a payment to pay, or (a learner under 18) a request for a guardian. */
export interface CheckoutAnswer {
  payment: ReturnType<typeof presentCheckout> | null;
  purchaseRequest: { id: string; status: PurchaseRequestStatus; productId: string } | null;
}

export function presentCheckout(payment: Payment) {
  return {
    id: payment.id,
    status: payment.status,
    provider: payment.provider,
    amount: payment.amount,
    currency: payment.currency,
    redirectUrl: payment.redirectUrl,
    expiresAt: payment.expiresAt.toISOString(),
  };
}

const isAdmin = (user: User | null) => Boolean(user?.hasRole(Role.admin));
const isMinor = (user: User) => user.hasRole(Role.learner) && user.birthDate !== null && ageOn(user.birthDate) < 18;

/**
 * Checkout, providers, webhooks, disputes, purchase requests and the ledger: one domain, because a
 * payment's success (or its refund) moves money on the ledger and grants (or takes back)
 * entitlements in one transaction. Products are the catalog's; entitlements are written through
 * their area; refunds are the refunds area's, which asks payments for the provider's refund.
 * This service is the area's one way in; the providers' events (payment-events.ts), the purchase
 * requests (purchase-requests.ts) and the ledger's postings (ledger.ts) are written beside it. Every
 * audit entry is written in the acting transaction, so an action that rolls back leaves none.
 */
export class PaymentsService {
  private readonly requests: PurchaseRequests;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
    private readonly providers: Providers,
  ) {
    this.requests = new PurchaseRequests(uow, services);
  }

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get deps(): Deps {
    return this.uow.deps;
  }

  /** This area's service on a region's database: this one for its own region. */
  private in(view: Deps): PaymentsService {
    return view.region === this.deps.region ? this : view.unit().services.payments;
  }

  /** This area's service in every region, global's first: for what admins and creators see of every buyer. */
  private get everywhere(): PaymentsService[] {
    return this.deps.regions.map((view) => this.in(view));
  }

  /** This area's service in the region holding the payment (it is its payer's home); global's when none does. */
  private async holding(id: string): Promise<PaymentsService> {
    return this.in(await regionOfPayment(this.deps, id));
  }

  /** A creator's sales: each successful payment of their listings, and what they earn after the platform's fee. */
  async sales(creator: User) {
    const fee = this.deps.config.MARKETPLACE_FEE_PERCENT;
    // Each buyer's payment is in the buyer's home region: the creator's sales are every region's.
    const payments = (await Promise.all(this.everywhere.map((here) => here.salesHere(creator.id))))
      .flat()
      .sort((a, b) => b.succeededAt!.getTime() - a.succeededAt!.getTime() || (a.id < b.id ? 1 : -1));
    const items = payments.map((p) => {
      const kept = p.amount - p.refundedAmount;
      const platformFee = Math.floor((kept * fee) / 100);
      return {
        paymentId: p.id,
        productId: p.product.id,
        title: p.product.title,
        amount: p.amount,
        refunded: p.refundedAmount,
        currency: p.currency,
        fee: platformFee,
        earnings: kept - platformFee,
        soldAt: p.succeededAt!,
      };
    });
    const totals = new Map<string, { currency: string; amount: number; earnings: number; sales: number }>();
    for (const item of items) {
      const total = totals.get(item.currency) ?? { currency: item.currency, amount: 0, earnings: 0, sales: 0 };
      total.amount += item.amount - item.refunded;
      total.earnings += item.earnings;
      total.sales += 1;
      totals.set(item.currency, total);
    }
    return { feePercent: fee, items, totals: [...totals.values()] };
  }

  private salesHere(creatorId: string): Promise<Payment[]> {
    return this.em.find(
      Payment,
      {
        product: { seller: creatorId },
        status: { $in: [PaymentStatus.succeeded, PaymentStatus.partially_refunded, PaymentStatus.refunded] },
      },
      { populate: ['product'], orderBy: { succeededAt: 'desc', id: 'desc' } },
    );
  }

  // ---- checkout ------------------------------------------------------------------------------

  private provider(name: string | null | undefined): PaymentProvider {
    const chosen = name ?? this.providers.defaultName;
    const provider = this.providers.offered.get(chosen);
    if (!provider) throw providerNotOffered(chosen, [...this.providers.offered.keys()]);
    return provider;
  }

  offeredProviders(): string[] {
    return [...this.providers.offered.keys()];
  }

  /**
   * A checkout under an Idempotency-Key: the key's row is taken first in the transaction, so a
   * concurrent request with the same key waits for this one and then answers what it answered.
   */
  async checkout(viewer: User, input: CheckoutInput, key: string | null): Promise<CheckoutAnswer> {
    if (key !== null && (key.length < 1 || key.length > 255)) throw badIdempotencyKey();
    this.checkReturnUrl(input.returnUrl);
    if (key === null) return this.uow.transaction(() => this.startCheckout(viewer, input));
    const hash = createHash('sha256')
      .update(
        JSON.stringify([
          input.productId,
          input.priceId,
          input.provider ?? null,
          input.returnUrl ?? null,
          input.learnerId ?? null,
        ]),
      )
      .digest('hex');
    return this.uow.transaction(async (em) => {
      const taken = await em.execute<{ request_hash: string }[]>(
        'insert into idempotency_keys (user_id, key, request_hash, created_at) values (?, ?, ?, now()) on conflict do nothing returning request_hash',
        [viewer.id, key, hash],
      );
      if (!taken.length) {
        const [row] = await em.execute<{ request_hash: string; response: CheckoutAnswer | null }[]>(
          'select request_hash, response from idempotency_keys where user_id = ? and key = ?',
          [viewer.id, key],
        );
        if (row.request_hash !== hash) throw idempotencyKeyReused();
        if (row.response) return row.response;
        throw idempotencyKeyUnderWay();
      }
      const answer = await this.startCheckout(viewer, input);
      await em.nativeUpdate(IdempotencyKey, { userId: viewer.id, key }, { response: answer });
      return answer;
    });
  }

  private checkReturnUrl(url: string | null | undefined): void {
    const { config } = this.deps;
    if (url != null && !isOwnReturnUrl(config, url)) throw badReturnUrl([config.WEB_ORIGIN, config.APP_ORIGIN]);
  }

  private async startCheckout(viewer: User, input: CheckoutInput): Promise<CheckoutAnswer> {
    const em = this.em;
    const product = await this.services.catalog.productForSale(input.productId);
    if (!product) throw productNotForSale();
    const price = product.prices.find((p) => p.id === input.priceId);
    if (!price) throw notAPriceOfProduct();
    let beneficiary = viewer;
    if (input.learnerId && input.learnerId !== viewer.id) {
      if (!isId(input.learnerId) || !(await this.services.guardian.isActiveGuardianOf(viewer.id, input.learnerId)))
        throw learnerNotFound();
      beneficiary = (await this.services.auth.findUser(input.learnerId))!;
    } else if (isMinor(viewer)) {
      return { payment: null, purchaseRequest: await this.requests.create(viewer, product, price) };
    }
    const provider = this.provider(input.provider);
    if (provider.currencies && !provider.currencies.includes(price.currency)) {
      throw providerCurrency(provider.name, provider.currencies, price.currency);
    }
    const payment = em.create(Payment, {
      payer: viewer,
      beneficiary,
      product,
      priceId: price.id,
      provider: provider.name,
      amount: price.amount,
      currency: price.currency,
      returnUrl: input.returnUrl ?? null,
      expiresAt: new Date(Date.now() + this.deps.config.PAYMENT_EXPIRY_MINUTES * 60_000),
    });
    await em.flush();
    let started: { redirectUrl: string; providerRef: string };
    try {
      started = await provider.start(this.providerPayment(payment, product));
    } catch (error) {
      this.deps.log.warn({ err: error, provider: provider.name }, 'payment provider refused a checkout');
      throw checkoutNotAccepted(provider.name);
    }
    payment.redirectUrl = started.redirectUrl;
    payment.providerRef = started.providerRef;
    await this.services.audit.recordSellingAction(viewer.id, 'payment.created', `payment:${payment.id}`, {
      amount: payment.amount,
      currency: payment.currency,
      provider: provider.name,
      beneficiaryId: beneficiary.id,
    });
    await em.flush();
    return { payment: presentCheckout(payment), purchaseRequest: null };
  }

  private providerPayment(payment: Payment, product?: Product): ProviderPayment {
    return {
      id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      description: (product ?? payment.product).title?.en ?? 'Learning platform',
      providerRef: payment.providerRef,
      providerCharge: payment.providerCharge,
      returnUrl: payment.returnUrl,
      succeededAt: payment.succeededAt,
      expiresAt: payment.expiresAt,
      interval: (product ?? payment.product).prices?.find((p) => p.id === payment.priceId)?.interval ?? null,
    };
  }

  // ---- payments ------------------------------------------------------------------------------

  async myPayments(viewer: User, first: number, after?: string | null): Promise<Page<Payment>> {
    const mine = { $or: [{ payer: viewer.id }, { beneficiary: viewer.id }] };
    const rows = await this.em.find(
      Payment,
      { ...mine, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(Payment, mine));
  }

  async payment(viewer: User, id: string): Promise<Payment> {
    // An admin's look-up names any buyer's payment: it is in that buyer's home region.
    const home = isAdmin(viewer) ? await this.holding(id) : this;
    const payment = isId(id) ? await home.em.findOne(Payment, { id }) : null;
    if (!payment || (!isAdmin(viewer) && payment.payer.id !== viewer.id && payment.beneficiary.id !== viewer.id))
      throw paymentNotFound();
    return payment;
  }

  /** The payments among these ids the viewer may see, as `payment` reads one. */
  async paymentsByIds(viewer: User, ids: string[]): Promise<Payment[]> {
    const wanted = { id: { $in: ids.filter(isId) } };
    const rows = isAdmin(viewer)
      ? (await Promise.all(this.everywhere.map((here) => here.em.find(Payment, wanted)))).flat()
      : await this.em.find(Payment, wanted);
    return rows.filter(
      (payment) => isAdmin(viewer) || payment.payer.id === viewer.id || payment.beneficiary.id === viewer.id,
    );
  }

  /** What the sandbox page shows: anyone holding its signed link, while the sandbox is offered. */
  async sandboxPayment(id: string): Promise<Payment | null> {
    return isId(id) && this.providers.offered.has('sandbox')
      ? this.em.findOne(Payment, { id, provider: 'sandbox' }, { populate: ['product'] })
      : null;
  }

  // ---- webhooks ------------------------------------------------------------------------------

  /**
   * A provider's webhook: the signature is checked on the raw body before anything else; the
   * event is stored once by (provider, event id) in the transaction that applies it.
   */
  async webhook(providerName: string, request: WebhookRequest): Promise<WebhookAnswer> {
    const provider = this.providers.offered.get(providerName);
    if (!provider) throw providerNotFound();
    let event: ProviderEvent;
    try {
      event = provider.verify(request);
    } catch (error) {
      if (!(error instanceof InvalidSignature))
        this.deps.log.warn({ err: error, provider: providerName }, 'unreadable webhook');
      return (
        provider.refused?.() ?? {
          status: 400,
          body: { error: 'invalid_signature', message: 'The webhook signature does not verify; nothing was stored.' },
        }
      );
    }
    if (provider.complete) {
      try {
        event = await provider.complete(event);
      } catch (error) {
        this.deps.log.warn(
          { err: error, provider: providerName, eventId: event.eventId },
          'payment provider did not complete a webhook event',
        );
        throw webhookNotCompleted(provider.name);
      }
    }
    const home = this.in(this.deps.inRegion(await regionOfEvent(this.deps, provider.name, event)));
    return provider.answer(await home.applyEvent(provider.name, event));
  }

  /** A provider's event, applied once (the webhook's, or a refund's answer that the provider gave at once). */
  applyEvent(provider: string, event: ProviderEvent): Promise<WebhookOutcome> {
    return new PaymentEvents(this.uow, this.services).apply(provider, event);
  }

  // ---- purchase requests ---------------------------------------------------------------------

  purchaseRequests(viewer: User, first: number, after?: string | null): Promise<Page<PurchaseRequest>> {
    return this.requests.list(viewer, first, after);
  }

  /** The requests among these ids that `purchaseRequests` lists to the viewer (their own, a guardian's learners'). */
  purchaseRequestsByIds(viewer: User, ids: string[]): Promise<PurchaseRequest[]> {
    return this.requests.byIds(viewer, ids);
  }

  /** Whether the request is of a learner the guardian is an active guardian of: whom it is for to decide. */
  guardsRequest(guardianId: string, id: string): Promise<boolean> {
    return this.requests.guards(guardianId, id);
  }

  /** The guardian approves: the answer is a checkout for the guardian to pay, the learner its beneficiary. */
  async approveRequest(
    guardian: User,
    id: string,
    provider: string | null,
    returnUrl: string | null,
  ): Promise<CheckoutAnswer> {
    this.checkReturnUrl(returnUrl);
    return this.uow.transaction(async (em) => {
      const request = await this.requests.pendingFor(em, guardian, id);
      const answer = await this.startCheckout(guardian, {
        productId: request.product.id,
        priceId: request.priceId,
        provider,
        returnUrl,
        learnerId: request.learner.id,
      });
      await this.requests.approved(em, request, guardian, answer.payment!.id);
      return answer;
    });
  }

  declineRequest(guardian: User, id: string): Promise<PurchaseRequest> {
    return this.requests.decline(guardian, id);
  }

  /** The job: subscriptions past endsAt expire (tiers drop), pending payments past expiresAt expire. */
  async sweep(now: Date = new Date()): Promise<{ entitlements: number; payments: number }> {
    return this.uow.transaction(async (em) => {
      const entitlements = await this.services.entitlements.expireEnded(now);
      const expired = await em.execute<{ id: string }[]>(
        `update payments set status = 'expired', updated_at = now() where status = 'pending' and expires_at <= ? returning id`,
        [now],
      );
      for (const row of expired)
        await this.services.audit.recordSellingAction(null, 'payment.expired', `payment:${row.id}`);
      await em.flush();
      return { entitlements, payments: expired.length };
    });
  }

  // ---- refunds (the refunds area keeps them; payments moves their money) ---------------------

  /**
   * The payment, its row locked for the caller's transaction (a refund asked for reserves part of
   * it: concurrent requests wait for each other here); null when there is none.
   */
  async lockedPayment(id: string): Promise<Payment | null> {
    return isId(id) ? this.em.findOne(Payment, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : null;
  }

  /**
   * Asks the payment's provider to refund `refund` (an approved refund); `completed` when its answer
   * settles it at once (VNPay, MoMo), else its webhook does. Throws when the provider refuses or is
   * no longer configured.
   */
  async askProviderRefund(
    paymentId: string,
    refund: { id: string; amount: number; reason: string },
  ): Promise<{ providerRef: string | null; completed: boolean }> {
    const payment = (await this.em.findOne(Payment, { id: paymentId }, { populate: ['product'], refresh: true }))!;
    const provider = this.providers.offered.get(payment.provider);
    if (!provider) throw new Error(`${payment.provider} is no longer configured`);
    const full = refund.amount === payment.amount - payment.refundedAmount;
    return provider.refund(this.providerPayment(payment), { ...refund, full });
  }

  /**
   * The provider's answer to a refund asked of it, applied as its webhook would be: the refund
   * succeeded (`error` undefined) or failed, once, in one transaction with the money it moves.
   */
  async refundAnswered(paymentId: string, refundId: string, error?: unknown): Promise<void> {
    const { provider } = (await this.em.findOne(Payment, { id: paymentId }))!;
    await this.applyEvent(
      provider,
      error === undefined
        ? { eventId: `refund:${refundId}`, kind: 'refund_succeeded', paymentId, refundId, raw: { refundId } }
        : {
            eventId: `refund-failed:${refundId}`,
            kind: 'refund_failed',
            paymentId,
            refundId,
            raw: { error: String(error) },
          },
    );
  }

  // ---- ledger --------------------------------------------------------------------------------

  /** Money taken per currency in ledger transactions booked since `since`, refunds and chargebacks deducted. */
  async revenueSince(since: Date): Promise<{ currency: string; amount: number }[]> {
    // Each region's ledger books its buyers' payments: the platform's revenue is their sum.
    const rows = (await Promise.all(this.everywhere.map((here) => revenueSince(here.em, since)))).flat();
    return summed(rows, (row) => [row.currency], ['amount']).filter((row) => row.amount !== 0);
  }

  async balances(): Promise<{ account: string; currency: string; balance: number; entries: number }[]> {
    const rows = (await Promise.all(this.everywhere.map((here) => balances(here.em)))).flat();
    return summed(rows, (row) => [row.account, row.currency], ['balance', 'entries']);
  }
}
