import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';

/** The consent types of docs/domain.md. */
export enum ConsentType {
  basic_data = 'basic_data',
  ai_conversation = 'ai_conversation',
  ai_memory = 'ai_memory',
  marketing_email = 'marketing_email',
  progress_sharing = 'progress_sharing',
}

/**
 * Where a consent stands for one person: the guardian's part and the person's own part are kept
 * apart, because some countries ask for both (Viet Nam from age 7) and ages move on.
 */
@Entity({ tableName: 'consents' })
@Unique({ properties: ['subject', 'type'] })
export class Consent {
  [OptionalProps]?: 'guardianGrantedBy' | 'guardianGrantedAt' | 'ownGrantedAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  subject!: User;

  @Enum({ items: () => ConsentType })
  type!: ConsentType;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  guardianGrantedBy: User | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  guardianGrantedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  ownGrantedAt: Date | null = null;

  @Property({ type: 'integer' })
  policyVersion!: number;

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}

export enum ConsentAction {
  granted = 'granted',
  revoked = 'revoked',
}

export enum ConsentActorRole {
  self = 'self',
  guardian = 'guardian',
}

/** The consent ledger: every grant and revoke, never changed or removed (a trigger refuses it). */
@Entity({ tableName: 'consent_ledger' })
@Index({ properties: ['subject', 'createdAt'] })
export class ConsentLedgerEntry {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  subject!: User;

  @Enum({ items: () => ConsentType })
  type!: ConsentType;

  @Enum({ items: () => ConsentAction })
  action!: ConsentAction;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  actor!: User | null;

  @Enum({ items: () => ConsentActorRole })
  actorRole!: ConsentActorRole;

  @Property({ type: 'character', length: 2 })
  country!: string;

  @Property({ type: 'integer' })
  policyVersion!: number;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
