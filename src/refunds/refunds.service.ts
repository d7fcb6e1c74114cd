import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../auth';
import type { Deps } from '../kernel/deps';
import { Role } from '../kernel/domain';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { acrossRegions, type RegionPart } from '../kernel/region-pages';
import { regionHolding } from '../kernel/region-lookup';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { paymentNotFound, PaymentStatus, regionOfPayment } from '../payments';
import {
  paymentNotRefundable,
  refundAmountInvalid,
  refundDecided,
  refundNotFound,
  refundReasonMissing,
  refundTooLarge,
  refundWindowPassed,
} from './refunds.errors';
import { Refund, RefundStatus } from './refunds.entity';

const isAdmin = (user: User | null) => Boolean(user?.hasRole(Role.admin));

/**
 * Refunds of payments: asked for by the payer (or an admin), decided by an admin, then asked of the
 * provider through payments, which moves the money when the provider answers (the refund's row
 * follows in that transaction, through `refund-settlement.ts`).
 */
export class RefundsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get deps(): Deps {
    return this.uow.deps;
  }

  /** This area's service on a region's database: this one for its own region. */
  private in(view: Deps): RefundsService {
    return view.region === this.deps.region ? this : view.unit().services.refunds;
  }

  /**
   * Where an admin's action on a refund named by id runs: in the region holding it, its payer's home
   * (this one when none does, which then answers not found).
   */
  private async holdingRefund(id: string): Promise<RefundsService> {
    const home = isId(id) ? await regionHolding(this.deps, 'select 1 from refunds where id = ? limit 1', [id]) : null;
    return home ? this.in(home) : this;
  }

  /**
   * A refund asked for: the payment's row is locked, so concurrent requests see each other's
   * reservations and together never pass the amount paid.
   */
  async request(viewer: User, input: { paymentId: string; amount?: number | null; reason: string }): Promise<Refund> {
    if (!input.reason?.trim() || input.reason.length > 1000) throw refundReasonMissing();
    if (input.amount != null && (!Number.isSafeInteger(input.amount) || input.amount <= 0)) throw refundAmountInvalid();
    // A payer's payment is in their own region; an admin's may be any buyer's, kept in that buyer's.
    const home = isAdmin(viewer) ? await regionOfPayment(this.deps, input.paymentId) : null;
    if (home && home.region !== this.deps.region) return this.in(home).request(viewer, input);
    return this.uow.transaction(async (em) => {
      const payment = await this.services.payments.lockedPayment(input.paymentId);
      if (!payment || (!isAdmin(viewer) && payment.payer.id !== viewer.id)) throw paymentNotFound();
      if (![PaymentStatus.succeeded, PaymentStatus.partially_refunded].includes(payment.status))
        throw paymentNotRefundable(payment.status);
      if (
        !isAdmin(viewer) &&
        payment.succeededAt!.getTime() + this.deps.config.REFUND_WINDOW_DAYS * 86_400_000 < Date.now()
      ) {
        throw refundWindowPassed(this.deps.config.REFUND_WINDOW_DAYS);
      }
      const [{ reserved }] = await em.execute<{ reserved: string | null }[]>(
        `select coalesce(sum(amount), 0) as reserved from refunds where payment_id = ? and status in ('requested', 'processing')`,
        [payment.id],
      );
      const left = payment.amount - payment.refundedAmount - Number(reserved);
      const amount = input.amount ?? left;
      if (amount <= 0 || amount > left) throw refundTooLarge(Math.max(left, 0), payment.currency);
      const refund = em.create(Refund, {
        payment,
        requestedBy: viewer.id,
        amount,
        currency: payment.currency,
        reason: input.reason.trim(),
      });
      await this.services.audit.recordSellingAction(viewer.id, 'refund.requested', `refund:${refund.id}`, {
        paymentId: payment.id,
        amount,
        currency: payment.currency,
      });
      await em.flush();
      return refund;
    });
  }

  /** The viewer's own requests (in their home region), or every region's refunds for admins, newest first. */
  async list(viewer: User | null, mine: boolean, first: number, after?: string | null): Promise<Page<Refund>> {
    if (mine) {
      const { rows, count } = await this.listHere({ requestedBy: viewer!.id }, first, after);
      return toPage(rows, first, after, count);
    }
    return acrossRegions(this.deps, first, after, (view) => this.in(view).listHere({}, first, after));
  }

  /** This region's part of a list of refunds. */
  private async listHere(
    where: { requestedBy?: string },
    first: number,
    after?: string | null,
  ): Promise<RegionPart<Refund>> {
    const rows = await this.em.find(
      Refund,
      { ...where, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return { rows, count: () => this.em.count(Refund, where) };
  }

  /** The refunds among these ids: the viewer's own requests (`myRefunds`), every one of every region for admins (`refunds`). */
  async byIds(viewer: User, ids: string[]): Promise<Refund[]> {
    const wanted = { id: { $in: ids.filter(isId) } };
    if (!isAdmin(viewer)) return this.em.find(Refund, { ...wanted, requestedBy: viewer.id });
    return (await Promise.all(this.deps.regions.map((view) => this.in(view).em.find(Refund, wanted)))).flat();
  }

  /** Approved: processing, and the provider is asked; its webhook (or its answer, for VNPay and MoMo) settles it. */
  async approve(admin: User, id: string): Promise<Refund> {
    const home = await this.holdingRefund(id);
    if (home !== this) return home.approve(admin, id);
    const refund = await this.uow.transaction(async (em) => {
      const found = await this.requested(em, id);
      found.status = RefundStatus.processing;
      found.decidedBy = admin.id;
      await this.services.audit.recordSellingAction(admin.id, 'refund.approved', `refund:${found.id}`, {
        paymentId: found.payment.id,
        amount: found.amount,
      });
      await em.flush();
      return found;
    });
    const paymentId = refund.payment.id;
    try {
      const asked = await this.services.payments.askProviderRefund(paymentId, {
        id: refund.id,
        amount: refund.amount,
        reason: refund.reason,
      });
      if (asked.providerRef) await this.em.nativeUpdate(Refund, { id: refund.id }, { providerRef: asked.providerRef });
      if (asked.completed) await this.services.payments.refundAnswered(paymentId, refund.id);
    } catch (error) {
      this.deps.log.warn({ err: error, refundId: refund.id }, 'provider refused a refund');
      await this.services.payments.refundAnswered(paymentId, refund.id, error);
    }
    return (await this.em.findOne(Refund, { id: refund.id }, { refresh: true }))!;
  }

  async reject(admin: User, id: string): Promise<Refund> {
    const home = await this.holdingRefund(id);
    if (home !== this) return home.reject(admin, id);
    return this.uow.transaction(async (em) => {
      const refund = await this.requested(em, id);
      refund.status = RefundStatus.rejected;
      refund.decidedBy = admin.id;
      await this.services.audit.recordSellingAction(admin.id, 'refund.rejected', `refund:${refund.id}`);
      await em.flush();
      return refund;
    });
  }

  /** The refund, locked for the decision, while it waits for one. */
  private async requested(em: EntityManager, id: string): Promise<Refund> {
    const refund = isId(id) ? await em.findOne(Refund, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!refund) throw refundNotFound();
    if (refund.status !== RefundStatus.requested) throw refundDecided(refund.status);
    return refund;
  }
}
