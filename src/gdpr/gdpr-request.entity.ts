import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';

export enum GdprRequestKind {
  export = 'export',
  deletion = 'deletion',
}

export enum GdprRequestStatus {
  queued = 'queued',
  running = 'running',
  ready = 'ready',
  scheduled = 'scheduled',
  completed = 'completed',
  canceled = 'canceled',
  failed = 'failed',
}

/** What an erasure has done, area by area, so a run that stopped half way goes on where it stopped. */
export interface ErasureProgress {
  receiptSent?: boolean;
  areas: Record<string, string>;
}

/**
 * A data export or an erasure, asked by the person (subject) or a linked guardian for a learner.
 * The subject's relation follows the account when erasure replaces its id by a pseudonym (the
 * foreign key cascades on update), so the request stays as the record that the erasure was done.
 */
@Entity({ tableName: 'gdpr_requests' })
@Index({ properties: ['subject', 'createdAt', 'id'] })
@Index({ properties: ['requester', 'createdAt', 'id'] })
@Index({
  name: 'gdpr_requests_due_index',
  expression: `create index "gdpr_requests_due_index" on "gdpr_requests" ("due_at") where "status" in ('scheduled', 'running') and "kind" = 'deletion'`,
})
// One erasure scheduled or running per person, however many ask at once.
@Index({
  name: 'gdpr_requests_one_deletion_index',
  expression: `create unique index "gdpr_requests_one_deletion_index" on "gdpr_requests" ("subject_id") where "kind" = 'deletion' and "status" in ('scheduled', 'running')`,
})
export class GdprRequest {
  [OptionalProps]?:
    | 'status'
    | 'dueAt'
    | 'expiresAt'
    | 'completedAt'
    | 'canceledAt'
    | 'previousStatus'
    | 'progress'
    | 'leaseUntil'
    | 'leaseOwner'
    | 'attempts'
    | 'error'
    | 'createdAt'
    | 'updatedAt'
    | 'requester';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Enum({ items: () => GdprRequestKind })
  kind!: GdprRequestKind;

  @Enum({ items: () => GdprRequestStatus })
  status: GdprRequestStatus = GdprRequestStatus.queued;

  @ManyToOne('User', { deleteRule: 'cascade' })
  subject!: User;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  requester: User | null = null;

  /** Erasure: when it runs (the end of the grace period). */
  @Property({ type: 'timestamptz', nullable: true })
  dueAt: Date | null = null;

  /** Export: when the download link and the file expire. */
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  canceledAt: Date | null = null;

  /** The account's status before erasure was asked, given back when it is canceled. */
  @Property({ type: 'text', nullable: true })
  previousStatus: string | null = null;

  @Property({ type: 'jsonb', default: `'{"areas":{}}'` })
  progress: ErasureProgress = { areas: {} };

  /** A run holds the request until then; a run that died leaves it to the next after that. */
  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil: Date | null = null;

  /** The claim of the run that holds the lease: its renewals and completion count only while it is this. */
  @Property({ type: 'uuid', nullable: true })
  leaseOwner: string | null = null;

  @Property({ type: 'integer' })
  attempts: number = 0;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
