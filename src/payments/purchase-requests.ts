import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../auth';
import type { Price, Product } from '../catalog';
import type { Deps } from '../kernel/deps';
import { Role } from '../kernel/domain';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { publicLink, sendRequestMail } from '../mail/deliver';
import { NotificationType } from '../notifications';
import { notify } from './notify';
import { PurchaseRequest, PurchaseRequestStatus } from './payments.entity';
import { purchaseRequestMail } from './payments.mails';
import { purchaseRequestDecided, purchaseRequestNotFound } from './payments.errors';

/**
 * What a learner under 18 asks for instead of paying: a request that each of their active
 * guardians hears of and one of them decides. An approval becomes a checkout that the guardian
 * pays (PaymentsService.approveRequest); a decline tells the learner.
 */
export class PurchaseRequests {
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

  async create(learner: User, product: Product, price: Price) {
    const request = this.em.create(PurchaseRequest, { learner, product, priceId: price.id });
    await this.services.audit.recordSellingAction(
      learner.id,
      'purchase_request.created',
      `purchase_request:${request.id}`,
      {
        productId: product.id,
        amount: price.amount,
        currency: price.currency,
      },
    );
    await this.em.flush();
    const guardians = await this.services.guardian.activeGuardianIdsOf(learner.id);
    // Each guardian hears of it in the app and by e-mail (once the request is committed).
    const link = publicLink(this.deps.config.PUBLIC_URL, 'payments/requests', undefined, { id: request.id });
    for (const guardian of await this.services.auth.findUsers(guardians)) {
      if (guardian.email)
        await sendRequestMail(
          this.uow,
          purchaseRequestMail(
            guardian.email,
            guardian.locale,
            learner.displayName,
            product.title,
            price.amount,
            price.currency,
            link,
          ),
        );
    }
    await notify(this.uow, guardians, NotificationType.guardian, {
      title: { en: `${learner.displayName} asks to buy`, vi: `${learner.displayName} xin mua` },
      body: {
        en: `${product.title.en}: approve or decline in your purchase requests.`,
        vi: `${product.title.vi}: hãy duyệt hoặc từ chối yêu cầu mua.`,
      },
      data: { purchaseRequestId: request.id, learnerId: learner.id, productId: product.id },
    });
    return { id: request.id, status: request.status, productId: product.id };
  }

  async list(viewer: User, first: number, after?: string | null): Promise<Page<PurchaseRequest>> {
    const learners = viewer.hasRole(Role.guardian) ? await this.services.guardian.activeLearnerIdsOf(viewer.id) : [];
    const rows = await this.em.find(
      PurchaseRequest,
      { learner: { $in: [viewer.id, ...learners] }, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1, populate: ['product', 'learner'] },
    );
    return toPage(rows, first, after, () =>
      this.em.count(PurchaseRequest, { learner: { $in: [viewer.id, ...learners] } }),
    );
  }

  /** The requests among these ids that `list` shows the viewer (their own, a guardian's learners'). */
  async byIds(viewer: User, ids: string[]): Promise<PurchaseRequest[]> {
    const learners = viewer.hasRole(Role.guardian) ? await this.services.guardian.activeLearnerIdsOf(viewer.id) : [];
    return this.em.find(
      PurchaseRequest,
      { id: { $in: ids.filter(isId) }, learner: { $in: [viewer.id, ...learners] } },
      { populate: ['product', 'learner'] },
    );
  }

  /** Whether the request is of a learner the guardian is an active guardian of: whom it is for to decide. */
  async guards(guardianId: string, id: string): Promise<boolean> {
    const learners = isId(id) ? await this.services.guardian.activeLearnerIdsOf(guardianId) : [];
    return learners.length > 0 && (await this.em.count(PurchaseRequest, { id, learner: { $in: learners } })) > 0;
  }

  /** The pending request for this guardian to decide, its row locked for the deciding transaction. */
  async pendingFor(em: EntityManager, guardian: User, id: string): Promise<PurchaseRequest> {
    const request = isId(id)
      ? await em.findOne(
          PurchaseRequest,
          { id },
          { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['product', 'learner'] },
        )
      : null;
    if (!request || !(await this.services.guardian.isActiveGuardianOf(guardian.id, request.learner.id)))
      throw purchaseRequestNotFound();
    if (request.status !== PurchaseRequestStatus.pending) throw purchaseRequestDecided(request.status);
    return request;
  }

  /** The request approved, in the transaction that started the guardian's checkout for it. */
  async approved(em: EntityManager, request: PurchaseRequest, guardian: User, paymentId: string): Promise<void> {
    request.status = PurchaseRequestStatus.approved;
    request.decidedBy = guardian.id;
    request.decidedAt = new Date();
    request.paymentId = paymentId;
    await this.services.audit.recordSellingAction(
      guardian.id,
      'purchase_request.approved',
      `purchase_request:${request.id}`,
      {
        paymentId: request.paymentId,
      },
    );
    await em.flush();
  }

  async decline(guardian: User, id: string): Promise<PurchaseRequest> {
    return this.uow.transaction(async (em) => {
      const request = await this.pendingFor(em, guardian, id);
      request.status = PurchaseRequestStatus.declined;
      request.decidedBy = guardian.id;
      request.decidedAt = new Date();
      await this.services.audit.recordSellingAction(
        guardian.id,
        'purchase_request.declined',
        `purchase_request:${request.id}`,
      );
      await em.flush();
      const learnerId = request.learner.id;
      const title = request.product.title;
      await notify(this.uow, [learnerId], NotificationType.guardian, {
        title: { en: 'Purchase declined', vi: 'Yêu cầu mua bị từ chối' },
        body: { en: title.en, vi: title.vi },
        data: { purchaseRequestId: request.id },
      });
      return request;
    });
  }
}
