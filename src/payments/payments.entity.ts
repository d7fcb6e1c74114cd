import { randomUUID } from 'node:crypto';
import {
  BigIntType,
  Check,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import type { User } from '../auth';
import type { Product } from '../catalog';

/** Amounts are integers in minor units (VND has none, USD cents); never floating point. */
const money = () => new BigIntType('number');

export enum PaymentStatus {
  pending = 'pending',
  succeeded = 'succeeded',
  failed = 'failed',
  canceled = 'canceled',
  expired = 'expired',
  partially_refunded = 'partially_refunded',
  refunded = 'refunded',
}

@Entity({ tableName: 'payments' })
@Index({ properties: ['payer', 'createdAt', 'id'] })
@Index({ properties: ['status', 'expiresAt'] })
@Index({ properties: ['beneficiary'] })
@Index({ properties: ['product'] })
// Disputes name the charge, not our payment.
@Index({ properties: ['provider', 'providerCharge'] })
// A provider's reference names one payment (webhooks find theirs by it).
@Index({
  name: 'payments_provider_provider_ref_unique',
  expression:
    'create unique index "payments_provider_provider_ref_unique" on "payments" ("provider", "provider_ref") where "provider_ref" is not null',
})
@Check({ name: 'payments_amount_check', expression: '"amount" > 0' })
@Check({ name: 'payments_refunded_within', expression: '"refunded_amount" >= 0 and "refunded_amount" <= "amount"' })
export class Payment {
  [OptionalProps]?:
    | 'status'
    | 'providerRef'
    | 'providerCharge'
    | 'redirectUrl'
    | 'returnUrl'
    | 'refundedAmount'
    | 'succeededAt'
    | 'createdAt'
    | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  payer!: User;

  /** Who gets what was bought: the payer, or the learner a guardian paid for. */
  @ManyToOne('User', { deleteRule: 'cascade' })
  beneficiary!: User;

  @ManyToOne('Product', { deleteRule: 'restrict' })
  product!: Product;

  @Property({ type: 'text' })
  priceId!: string;

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: money() })
  amount!: number;

  @Property({ type: 'string', columnType: 'char(3)' })
  currency!: string;

  @Enum({ items: () => PaymentStatus })
  status: PaymentStatus = PaymentStatus.pending;

  /** The provider's name for it (Stripe Checkout Session id, VNPay TxnRef, MoMo orderId). */
  @Property({ type: 'text', nullable: true })
  providerRef: string | null = null;

  /** What the provider refunds against (Stripe PaymentIntent, VNPay TransactionNo, MoMo transId). */
  @Property({ type: 'text', nullable: true })
  providerCharge: string | null = null;

  @Property({ type: 'text', nullable: true })
  redirectUrl: string | null = null;

  @Property({ type: 'text', nullable: true })
  returnUrl: string | null = null;

  @Property({ type: money() })
  refundedAmount: number = 0;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  succeededAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** A checkout's key: the hash of the request it came with and the first answer given. */
@Entity({ tableName: 'idempotency_keys' })
export class IdempotencyKey {
  [OptionalProps]?: 'response' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'text' })
  requestHash!: string;

  @Property({ type: 'jsonb', nullable: true })
  response: unknown = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/** Each provider event once: stored in the transaction that applies it. */
@Entity({ tableName: 'webhook_events' })
@Unique({ properties: ['provider', 'eventId'] })
export class WebhookEvent {
  [OptionalProps]?: 'receivedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'text' })
  eventId!: string;

  @Property({ type: 'text' })
  type!: string;

  @Property({ type: 'uuid', nullable: true })
  paymentId: string | null = null;

  @Property({ type: 'jsonb' })
  payload!: unknown;

  @Property({ type: 'timestamptz' })
  receivedAt: Date = new Date();
}

export enum LedgerKind {
  payment = 'payment',
  fee_split = 'fee_split',
  refund = 'refund',
  chargeback = 'chargeback',
}

/** Append-only: the database refuses UPDATE and DELETE, and a transaction whose entries do not sum to zero per currency. */
@Entity({ tableName: 'ledger_transactions' })
@Index({ properties: ['paymentId'] })
export class LedgerTransaction {
  [OptionalProps]?: 'refundId' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Enum({ items: () => LedgerKind })
  kind!: LedgerKind;

  @Property({ type: 'uuid' })
  paymentId!: string;

  @Property({ type: 'uuid', nullable: true })
  refundId: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

@Entity({ tableName: 'ledger_entries' })
@Index({ properties: ['transaction'] })
@Index({ properties: ['account', 'currency'] })
@Check({ name: 'ledger_entries_amount_check', expression: '"amount" <> 0' })
export class LedgerEntry {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => LedgerTransaction, { deleteRule: 'restrict', updateRule: 'restrict' })
  transaction!: LedgerTransaction;

  /** `customer:<userId>`, `provider:<name>`, `revenue:platform`, `payable:creator:<userId>`. */
  @Property({ type: 'text' })
  account!: string;

  /** Signed, minor units: debits positive, credits negative. */
  @Property({ type: money() })
  amount!: number;

  @Property({ type: 'string', columnType: 'char(3)' })
  currency!: string;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

export enum PurchaseRequestStatus {
  pending = 'pending',
  approved = 'approved',
  declined = 'declined',
}

@Entity({ tableName: 'purchase_requests' })
@Index({ properties: ['learner'] })
export class PurchaseRequest {
  [OptionalProps]?: 'status' | 'decidedBy' | 'decidedAt' | 'paymentId' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @ManyToOne('Product', { deleteRule: 'cascade' })
  product!: Product;

  @Property({ type: 'text' })
  priceId!: string;

  @Enum({ items: () => PurchaseRequestStatus })
  status: PurchaseRequestStatus = PurchaseRequestStatus.pending;

  @Property({ type: 'uuid', nullable: true })
  decidedBy: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  decidedAt: Date | null = null;

  @Property({ type: 'uuid', nullable: true })
  paymentId: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}

/**
 * Each account's balance per currency, kept by a trigger on ledger entries (spread over slots so
 * concurrent payments do not queue on one row): balances are read without scanning the entries.
 */
@Entity({ tableName: 'ledger_balances' })
export class LedgerBalance {
  @PrimaryKey({ type: 'text' })
  account!: string;

  @PrimaryKey({ type: 'string', columnType: 'char(3)' })
  currency!: string;

  @PrimaryKey({ type: 'smallint' })
  slot!: number;

  @Property({ type: BigIntType })
  balance!: string;

  @Property({ type: BigIntType })
  entries!: string;
}
