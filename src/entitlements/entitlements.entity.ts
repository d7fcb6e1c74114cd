import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import { Tier } from '../kernel/domain';

export enum EntitlementKind {
  tier = 'tier',
  course = 'course',
}

export enum EntitlementSource {
  purchase = 'purchase',
  grant = 'grant',
  school = 'school',
}

export enum EntitlementStatus {
  active = 'active',
  expired = 'expired',
  revoked = 'revoked',
}

/** Why an entitlement was revoked: a won dispute gives back only what its chargeback took. */
export enum EntitlementRevokedReason {
  refund = 'refund',
  chargeback = 'chargeback',
  admin = 'admin',
}

@Entity({ tableName: 'entitlements' })
@Index({ properties: ['user', 'status'] })
@Index({ properties: ['status', 'endsAt'] })
@Index({ properties: ['payment'] })
export class Entitlement {
  [OptionalProps]?:
    'tier' | 'courseId' | 'payment' | 'endsAt' | 'status' | 'revokedReason' | 'startsAt' | 'createdAt' | 'grantedBy';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => EntitlementKind })
  kind!: EntitlementKind;

  @Enum({ items: () => Tier, nullable: true })
  tier: Tier | null = null;

  @Property({ type: 'uuid', nullable: true })
  courseId: string | null = null;

  @Enum({ items: () => EntitlementSource })
  source!: EntitlementSource;

  // Named, not imported: payments grant entitlements, so the payments area sits above this one.
  @ManyToOne({ entity: 'Payment', nullable: true, deleteRule: 'set null' })
  payment: { id: string } | null = null;

  @Property({ type: 'uuid', nullable: true })
  grantedBy: string | null = null;

  @Property({ type: 'timestamptz' })
  startsAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  endsAt: Date | null = null;

  @Enum({ items: () => EntitlementStatus })
  status: EntitlementStatus = EntitlementStatus.active;

  /** Set with status revoked (null otherwise). */
  @Enum({ items: () => EntitlementRevokedReason, nullable: true })
  revokedReason: EntitlementRevokedReason | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
