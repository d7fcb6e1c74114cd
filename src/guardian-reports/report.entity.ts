import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';

export enum ReportKind {
  weekly = 'weekly',
  monthly = 'monthly',
  inactivity = 'inactivity',
}

/**
 * One report mail to a guardian about a learner for one period. The unique key (guardian,
 * learner, kind, period) is the claim: whichever instance inserts it sends the mail, so however
 * many run the job at once, one mail goes out.
 */
@Entity({ tableName: 'guardian_reports' })
@Unique({ properties: ['guardian', 'learner', 'kind', 'period'] })
@Index({ properties: ['guardian', 'createdAt', 'id'] })
export class GuardianReport {
  [OptionalProps]?: 'status' | 'sentAt' | 'createdAt' | 'activityCount';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  guardian!: User;

  @ManyToOne('User', { deleteRule: 'cascade' })
  learner!: User;

  @Enum({ items: () => ReportKind })
  kind!: ReportKind;

  /** `2026-W47`, `2026-11`, or for an inactivity alert the last activity that began the spell. */
  @Property({ type: 'text' })
  period!: string;

  /** `sending` while an instance holds it; `sent` once the mail server took it. */
  @Property({ type: 'text' })
  status: string = 'sending';

  @Property({ type: 'integer' })
  activityCount: number = 0;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
