import { LockMode } from '@mikro-orm/core';
import type { RefundSettlement } from '../payments';
import { Refund, RefundStatus } from './refunds.entity';

/**
 * How a provider's answer reaches a refund's row: in the transaction of the provider's event, where
 * payments moves the money (registered with payments by index.ts). Each refund waits for the
 * provider once (processing): a second answer about it, replayed or late, finds it settled.
 */
export const refundSettlement: RefundSettlement = {
  async awaitingProvider(uow, paymentId, refundId) {
    const refund = await uow.em.findOne(
      Refund,
      { id: refundId, payment: paymentId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    return refund?.status === RefundStatus.processing ? { id: refund.id, amount: refund.amount } : null;
  },

  async settled(uow, refundId, succeeded) {
    // Locked and read by awaitingProvider in this transaction: the entity manager has it.
    const refund = await uow.em.findOneOrFail(Refund, refundId);
    refund.status = succeeded ? RefundStatus.succeeded : RefundStatus.failed;
    await uow.em.flush();
  },

  async rejectRequested(uow, paymentId) {
    const rejected = await uow.em.execute<{ id: string }[]>(
      `update refunds set status = 'rejected', updated_at = now() where payment_id = ? and status = 'requested' returning id`,
      [paymentId],
    );
    return rejected.map((row) => row.id);
  },
};
