import type { EntityManager } from '@mikro-orm/postgresql';
import { auditEntryCte } from '../audit';
import { PriceInterval, ProductKind } from '../catalog';
import { EntitlementRevokedReason, purchaseGrantCtes } from '../entitlements';
import type { Deps } from '../kernel/deps';
import { isId } from '../kernel/ids';
import { push } from '../kernel/sql-params';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { NotificationType } from '../notifications';
import { feeSplit, ledgerCtes, platformFee, post, shareOf } from './ledger';
import { notify } from './notify';
import { LedgerKind, Payment, PaymentStatus } from './payments.entity';
import type { ProviderEvent, WebhookOutcome } from './providers/types';
import { refundSettlement } from './refund-settlement';
import { claim, type Sale, saleOf } from './webhook-claim';
import { sameCurrency, sameMoney } from './webhook-money';

/**
 * What the providers tell us, applied in one transaction each: payments succeeding, failing and
 * renewing, refunds settling, chargebacks and won disputes, with the ledger's postings and the
 * entitlements they grant or take back.
 */
export class PaymentEvents {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get deps(): Deps {
    return this.uow.deps;
  }

  /** The platform's fee on a payment of `amount`: all of it for the platform's own products (no seller). */
  private feeOf(amount: number, sellerId: string | null): number {
    return platformFee(this.deps.config.MARKETPLACE_FEE_PERCENT, amount, sellerId);
  }

  async apply(provider: string, event: ProviderEvent): Promise<WebhookOutcome> {
    try {
      return await this.applyEventOnce(provider, event);
    } catch (error) {
      if (error instanceof NotApplied) return error.outcome;
      throw error;
    }
  }

  /** An event we cannot apply (no such payment, another amount) is not kept: the provider may send it again, corrected. */
  private async applyEventOnce(provider: string, event: ProviderEvent): Promise<WebhookOutcome> {
    return this.uow.transaction(async (em) => {
      const claimed = await claim(em, provider, event);
      if (!claimed) return 'replayed';
      if (event.kind === 'ignored') return 'applied';
      if (!claimed.sale) throw new NotApplied('unknown_payment');
      // The hot path (a day of sales) goes on from the row it read; the rarer events load the payment to change it.
      if (event.kind === 'payment_succeeded') {
        if (!sameMoney(event, claimed.sale)) throw new NotApplied('wrong_amount');
        return (await this.succeed(em, claimed.sale, event)) ? 'applied' : 'already_final';
      }
      const payment = (await em.findOne(Payment, { id: claimed.sale.id }, { refresh: true }))!;
      await this.services.catalog.reloadProduct(payment.product.id);
      switch (event.kind) {
        case 'payment_failed':
        case 'payment_canceled':
          if (payment.status !== PaymentStatus.pending) return 'already_final';
          payment.status = event.kind === 'payment_failed' ? PaymentStatus.failed : PaymentStatus.canceled;
          await this.services.audit.recordSellingAction(null, `payment.${payment.status}`, `payment:${payment.id}`, {
            eventId: event.eventId,
          });
          await em.flush();
          return 'applied';
        case 'refund_succeeded':
        case 'refund_failed':
          return (await this.settleRefund(em, payment, event.refundId ?? null, event.kind === 'refund_succeeded'))
            ? 'applied'
            : 'already_final';
        case 'renewal_succeeded':
          return (await this.renew(em, payment, event)) ? 'applied' : 'already_final';
        case 'charge_identified':
          return (await this.recordCharge(em, payment, event)) ? 'applied' : 'already_final';
        case 'chargeback':
          return (await this.chargeback(em, payment, event)) ? 'applied' : 'already_final';
        case 'chargeback_reversed':
          return (await this.reverseChargeback(em, payment, event)) ? 'applied' : 'already_final';
        case 'chargeback_lost':
          await this.services.audit.recordSellingAction(null, 'payment.chargeback_lost', `payment:${payment.id}`, {
            eventId: event.eventId,
            disputeId: event.disputeId ?? null,
          });
          return 'applied';
        default:
          return 'applied';
      }
    });
  }

  /**
   * Success: the payment, the product's entitlements, the tier, the ledger (the payment and its fee
   * split) in one statement of the caller's transaction, then its audit entry. The webhook is the
   * hot path of a day of sales, so it is written as few round trips: the sales count and the
   * notifications follow after commit, without holding the provider's answer.
   */
  private async succeed(em: EntityManager, payment: Sale, event: ProviderEvent): Promise<boolean> {
    // A payment the provider took after we expired or canceled it is still money received.
    if (
      ![PaymentStatus.pending, PaymentStatus.expired, PaymentStatus.canceled, PaymentStatus.failed].includes(
        payment.status,
      )
    )
      return false;
    const product = payment.product;
    const price = product.prices.find((p) => p.id === payment.priceId);
    const { beneficiaryId, payerId } = payment;
    const params: unknown[] = [];
    const ctes = [
      `paid as (update payments set status = 'succeeded', succeeded_at = now(), provider_charge = coalesce(${push(params, event.providerCharge ?? null)}, provider_charge), updated_at = now()
        where id = ${push(params, payment.id)} returning id)`,
    ];
    const param = (value: unknown) => push(params, value);
    if (product.kind === ProductKind.subscription) {
      const interval = (price?.interval ?? PriceInterval.month) === PriceInterval.year ? '1 year' : '1 month';
      ctes.push(...purchaseGrantCtes(this.uow, param, payment.id, beneficiaryId, { tier: product.tier!, interval }));
    } else
      ctes.push(...purchaseGrantCtes(this.uow, param, payment.id, beneficiaryId, { courseIds: product.courseIds }));
    const fee = this.feeOf(payment.amount, product.sellerId);
    ctes.push(
      ...ledgerCtes(params, payment.id, null, payment.currency, [
        [
          LedgerKind.payment,
          [
            [`provider:${payment.provider}`, payment.amount],
            [`customer:${payerId}`, -payment.amount],
          ],
        ],
        [LedgerKind.fee_split, feeSplit(payerId, product.sellerId, payment.amount, fee, 1)],
      ]),
    );
    // Its audit entry in the same statement: the webhook's answer waits for every round trip.
    const data = { amount: payment.amount, currency: payment.currency, eventId: event.eventId, beneficiaryId };
    ctes.push(
      auditEntryCte((value) => push(params, value), {
        actorId: null,
        action: 'commerce.payment_succeeded',
        targetType: 'payment',
        targetId: payment.id,
        data,
      }),
    );
    await em.execute(`with ${ctes.join(',\n')} select 1`, params);
    // The sales count only sorts the marketplace (its hot row is not locked by the webhook), and the
    // notifications are the people's: both follow the commit, once each, off the answer's path.
    await this.uow.raise({ type: 'payment.succeeded', paymentId: payment.id, productId: product.id });
    await notify(this.uow, [payerId, beneficiaryId], NotificationType.system, {
      title: { en: 'Payment received', vi: 'Đã nhận thanh toán' },
      body: { en: `${product.title.en} is yours.`, vi: `${product.title.vi} đã sẵn sàng.` },
      data: { paymentId: payment.id },
    });
    return true;
  }

  /**
   * The charge a provider names after the fact (a Stripe subscription's first invoice.paid), before
   * or after the checkout's completion (which keeps it: it only sets a charge it carries itself).
   * A charge already known stays, so a replayed or late event changes nothing.
   */
  private async recordCharge(em: EntityManager, payment: Payment, event: ProviderEvent): Promise<boolean> {
    if (!event.providerCharge || payment.providerCharge) return false;
    payment.providerCharge = event.providerCharge;
    await em.flush();
    return true;
  }

  /**
   * A subscription billed again by the provider: a payment of its own (succeeded, on the ledger)
   * whose entitlement runs on from the end of the current one. The invoice names one payment, so
   * a second event about it changes nothing.
   */
  private async renew(em: EntityManager, first: Payment, event: ProviderEvent): Promise<boolean> {
    if (first.product.kind !== ProductKind.subscription || !event.providerRef) throw new NotApplied('unknown_payment');
    if (await em.count(Payment, { provider: first.provider, providerRef: event.providerRef })) return false;
    if (!sameMoney(event, first)) throw new NotApplied('wrong_amount');
    const renewal = em.create(Payment, {
      payer: first.payer,
      beneficiary: first.beneficiary,
      product: first.product,
      priceId: first.priceId,
      provider: first.provider,
      amount: first.amount,
      currency: first.currency,
      providerRef: event.providerRef,
      providerCharge: event.providerCharge ?? null,
      expiresAt: new Date(),
    });
    await em.flush();
    return this.succeed(em, saleOf(renewal), { ...event, paymentId: renewal.id });
  }

  /**
   * A chargeback: the provider took the disputed amount back from us. One balanced ledger
   * transaction moves it out of the provider's account and takes back the revenue and the
   * creator's share; the payment counts it as returned (no refund can follow on top of it),
   * refunds still asked for are rejected, and when nothing is left paid the entitlements go.
   */
  private async chargeback(em: EntityManager, payment: Payment, event: ProviderEvent): Promise<boolean> {
    if (![PaymentStatus.succeeded, PaymentStatus.partially_refunded].includes(payment.status)) return false;
    const left = payment.amount - payment.refundedAmount;
    if (!sameCurrency(event, payment)) throw new NotApplied('wrong_amount');
    const amount = Math.min(event.amount ?? left, left);
    if (amount <= 0) return false;
    const fee = this.feeOf(payment.amount, payment.product.seller?.id ?? null);
    const before = payment.refundedAmount;
    const feeBack = shareOf(fee, payment.amount, before + amount) - shareOf(fee, payment.amount, before);
    const seller = payment.product.seller;
    const entries: [string, number][] = [
      [`provider:${payment.provider}`, -amount],
      ['revenue:platform', feeBack],
    ];
    if (seller) entries.push([`payable:creator:${seller.id}`, amount - feeBack]);
    await post(em, LedgerKind.chargeback, payment.id, null, entries, payment.currency);
    payment.refundedAmount = before + amount;
    payment.status =
      payment.refundedAmount >= payment.amount ? PaymentStatus.refunded : PaymentStatus.partially_refunded;
    const rejected = await refundSettlement().rejectRequested(this.uow, payment.id);
    if (payment.status === PaymentStatus.refunded) {
      await this.services.entitlements.revokeOfPayment(
        payment.id,
        payment.beneficiary.id,
        EntitlementRevokedReason.chargeback,
      );
    }
    await this.services.audit.recordSellingAction(null, 'payment.charged_back', `payment:${payment.id}`, {
      amount,
      currency: payment.currency,
      disputeId: event.disputeId ?? null,
      eventId: event.eventId,
      rejectedRefunds: rejected,
    });
    await em.flush();
    return true;
  }

  /**
   * A dispute won: what the chargebacks took comes back, in one transaction that reverses theirs,
   * and so do the entitlements the chargeback revoked (not one an admin or a refund revoked).
   */
  private async reverseChargeback(em: EntityManager, payment: Payment, event: ProviderEvent): Promise<boolean> {
    const held = await em.execute<{ account: string; amount: string }[]>(
      `select e.account, sum(e.amount) as amount from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
       where t.payment_id = ? and t.kind = 'chargeback' group by e.account having sum(e.amount) <> 0`,
      [payment.id],
    );
    const taken = -Number(held.find((row) => row.account === `provider:${payment.provider}`)?.amount ?? 0);
    if (taken <= 0) return false;
    await post(
      em,
      LedgerKind.chargeback,
      payment.id,
      null,
      held.map((row) => [row.account, -Number(row.amount)]),
      payment.currency,
    );
    const wasRefunded = payment.status === PaymentStatus.refunded;
    payment.refundedAmount -= taken;
    payment.status = payment.refundedAmount > 0 ? PaymentStatus.partially_refunded : PaymentStatus.succeeded;
    if (wasRefunded) await this.services.entitlements.restoreAfterChargeback(payment.id, payment.beneficiary.id);
    await this.services.audit.recordSellingAction(null, 'payment.chargeback_reversed', `payment:${payment.id}`, {
      amount: taken,
      currency: payment.currency,
      disputeId: event.disputeId ?? null,
      eventId: event.eventId,
    });
    await em.flush();
    return true;
  }

  /**
   * The provider's word on a refund: succeeded moves money back (ledger reversed, entitlements
   * revoked when whole). The refund's row follows in this transaction, through its area.
   */
  private async settleRefund(
    em: EntityManager,
    payment: Payment,
    refundId: string | null,
    succeeded: boolean,
  ): Promise<boolean> {
    const settlement = refundSettlement();
    const refund =
      refundId && isId(refundId) ? await settlement.awaitingProvider(this.uow, payment.id, refundId) : null;
    if (!refund) return false;
    // A chargeback took the money back meanwhile: this refund cannot pay it out again.
    if (succeeded && payment.refundedAmount + refund.amount > payment.amount) succeeded = false;
    if (!succeeded) {
      await settlement.settled(this.uow, refund.id, false);
      await this.services.audit.recordSellingAction(null, 'refund.failed', `refund:${refund.id}`);
      await em.flush();
      return true;
    }
    const fee = this.feeOf(payment.amount, payment.product.seller?.id ?? null);
    const before = payment.refundedAmount;
    const after = before + refund.amount;
    const feeBack = shareOf(fee, payment.amount, after) - shareOf(fee, payment.amount, before);
    await settlement.settled(this.uow, refund.id, true);
    payment.refundedAmount = after;
    payment.status = after >= payment.amount ? PaymentStatus.refunded : PaymentStatus.partially_refunded;
    await em.flush();
    await post(
      em,
      LedgerKind.refund,
      payment.id,
      refund.id,
      [
        [`provider:${payment.provider}`, -refund.amount],
        [`customer:${payment.payer.id}`, refund.amount],
      ],
      payment.currency,
    );
    await post(
      em,
      LedgerKind.fee_split,
      payment.id,
      refund.id,
      feeSplit(payment.payer.id, payment.product.seller?.id ?? null, refund.amount, feeBack, -1),
      payment.currency,
    );
    if (payment.status === PaymentStatus.refunded) {
      await this.services.entitlements.revokeOfPayment(
        payment.id,
        payment.beneficiary.id,
        EntitlementRevokedReason.refund,
      );
    }
    await this.services.audit.recordSellingAction(null, 'refund.succeeded', `refund:${refund.id}`, {
      paymentId: payment.id,
      amount: refund.amount,
      currency: payment.currency,
    });
    await em.flush();
    return true;
  }
}

class NotApplied extends Error {
  constructor(readonly outcome: WebhookOutcome) {
    super(outcome);
  }
}
