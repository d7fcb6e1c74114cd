import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';

/**
 * One privileged action: who did what to which thing, with what, and when. Written by the area
 * that acts, in the transaction of the action, so an action that rolls back leaves no entry.
 */
@Entity({ tableName: 'audit_entries' })
@Index({ properties: ['createdAt', 'id'] })
@Index({ properties: ['action', 'createdAt'] })
@Index({ properties: ['targetId', 'createdAt'] })
@Index({ properties: ['actor', 'createdAt'] })
export class AuditEntry {
  [OptionalProps]?: 'actor' | 'targetType' | 'targetId' | 'data' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /**
   * Null when the action came from the command line or the system. No foreign key: the entry is kept
   * where the action was done, and its actor may live in another region (docs/residency.md).
   */
  @ManyToOne('User', { nullable: true, createForeignKeyConstraint: false })
  actor: User | null = null;

  /** `<area>.<verb>`, e.g. `admin.role_granted`, `admin.user_suspended`, `features.flag_changed`. */
  @Property({ type: 'text' })
  action!: string;

  /** What the action was done to: `user`, `flag`, `course`, `country_policy`, ... */
  @Property({ type: 'text', nullable: true })
  targetType: string | null = null;

  @Property({ type: 'text', nullable: true })
  targetId: string | null = null;

  /** The action's particulars (the role, the reason, the flag before and after). */
  @Property({ type: 'jsonb', default: "'{}'" })
  data: Record<string, unknown> = {};

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
