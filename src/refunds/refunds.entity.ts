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
} from '@mikro-orm/core';
import type { User } from '../auth';
import type { Payment } from '../payments';

export enum RefundStatus {
  requested = 'requested',
  processing = 'processing',
  succeeded = 'succeeded',
  rejected = 'rejected',
  failed = 'failed',
}

/** The table is the one the commerce migration made (a payments migration); refunds own its rows. */
@Entity({ tableName: 'refunds' })
@Index({ properties: ['payment'] })
@Index({ properties: ['requestedBy'] })
@Check({ name: 'refunds_amount_check', expression: '"amount" > 0' })
export class Refund {
  [OptionalProps]?: 'status' | 'providerRef' | 'decidedBy' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('Payment', { deleteRule: 'restrict' })
  payment!: Payment;

  /** No foreign key: an admin of another region may ask for the refund (its erasure sets the pseudonym itself). */
  @ManyToOne('User', { createForeignKeyConstraint: false })
  requestedBy!: User;

  /** Minor units, as the payment's amount: never floating point. */
  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'string', columnType: 'char(3)' })
  currency!: string;

  @Property({ type: 'text' })
  reason!: string;

  @Enum({ items: () => RefundStatus })
  status: RefundStatus = RefundStatus.requested;

  @Property({ type: 'text', nullable: true })
  providerRef: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  decidedBy: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
