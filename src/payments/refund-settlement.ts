import type { UnitOfWork } from '../kernel/unit-of-work';

/**
 * What payments asks of the refunds it settles, answered by the area that keeps them (refunds),
 * which registers itself here when its module loads. A provider's word on a refund moves money
 * (the ledger, the payment's refunded amount and status) and changes the refund's row: both happen
 * in the one transaction of the provider's event, so nobody ever reads a refunded payment whose
 * refund is still processing, and a replayed event finds the refund settled and changes nothing.
 * Payments reads and writes no refund row itself, and names no refund type: refunds uses payments,
 * never the other way round.
 */
export interface RefundSettlement {
  /** Locks the payment's refund `refundId`: its amount while it waits for the provider (processing), else null. */
  awaitingProvider(
    uow: UnitOfWork,
    paymentId: string,
    refundId: string,
  ): Promise<{ id: string; amount: number } | null>;
  /** The provider refunded (`succeeded`) or could not: the refund locked by `awaitingProvider` says so. */
  settled(uow: UnitOfWork, refundId: string, succeeded: boolean): Promise<void>;
  /** A chargeback took the money back: the payment's refunds still asked for are rejected; their ids. */
  rejectRequested(uow: UnitOfWork, paymentId: string): Promise<string[]>;
}

let settlement: RefundSettlement | null = null;

/** Called once by the refunds area as its module loads (as `defineArea` registers an area's nodes). */
export function settleRefundsThrough(registered: RefundSettlement): void {
  settlement = registered;
}

export function refundSettlement(): RefundSettlement {
  if (!settlement)
    throw new Error('No area settles refunds: the refunds area registers itself when src/areas.ts loads it');
  return settlement;
}
