import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';

export enum MemoryDeletionStatus {
  pending = 'pending',
  done = 'done',
}

/**
 * One revocation of the `ai_memory` consent (by the learner or a guardian), and what the AI
 * backend answered when asked to forget the memory (`DELETE /memory`): kept, and asked again with
 * backoff until it answers. Made from the consent ledger, so no revocation is missed.
 */
@Entity({ tableName: 'ai_memory_deletions' })
@Index({ properties: ['status', 'nextAttemptAt'] })
export class AiMemoryDeletion {
  [OptionalProps]?: 'status' | 'attempts' | 'lastAnswer' | 'lastError' | 'nextAttemptAt' | 'doneAt' | 'createdAt';

  /** The consent ledger entry of the revocation. */
  @PrimaryKey({ type: 'uuid' })
  ledgerEntryId!: string;

  @ManyToOne('User', { deleteRule: 'cascade' })
  subject!: User;

  @Enum({ items: () => MemoryDeletionStatus })
  status: MemoryDeletionStatus = MemoryDeletionStatus.pending;

  @Property({ type: 'integer' })
  attempts: number = 0;

  /** The backend's answer: `204`, `404`, or the error code of the last failure. */
  @Property({ type: 'text', nullable: true })
  lastAnswer: string | null = null;

  @Property({ type: 'text', nullable: true })
  lastError: string | null = null;

  @Property({ type: 'timestamptz' })
  nextAttemptAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  doneAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
