import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';

export enum LinkStatus {
  pending = 'pending',
  active = 'active',
  revoked = 'revoked',
}

/**
 * A guardian's link to a learner. Declared by e-mail, it waits (`pending`) for the learner, who
 * may not have an account yet (`learner` is null until they do). The database holds the limits:
 * one non-revoked link per guardian and address, one primary guardian per learner.
 */
@Entity({ tableName: 'guardian_links' })
@Index({ properties: ['guardian', 'createdAt'] })
@Index({ properties: ['learnerEmail'] })
@Index({ properties: ['learner', 'status'] })
// What the limits of the specification rest on: one open link per guardian and address, one primary guardian.
@Index({
  name: 'guardian_links_open_unique',
  expression: `create unique index "guardian_links_open_unique" on "guardian_links" ("guardian_id", "learner_email") where "status" <> 'revoked'`,
})
@Index({
  name: 'guardian_links_primary_unique',
  expression: 'create unique index "guardian_links_primary_unique" on "guardian_links" ("learner_id") where "primary"',
})
export class GuardianLink {
  [OptionalProps]?: 'learner' | 'status' | 'primary' | 'confirmTokenHash' | 'createdAt' | 'activatedAt' | 'revokedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  guardian!: User;

  @ManyToOne('User', { nullable: true, deleteRule: 'cascade' })
  learner: User | null = null;

  @Property({ type: 'text' })
  learnerEmail!: string;

  @Enum({ items: () => LinkStatus })
  status: LinkStatus = LinkStatus.pending;

  @Property({ type: 'boolean' })
  primary: boolean = false;

  /** The mailed confirmation, stored hashed; cleared once used. */
  @Property({ type: 'text', nullable: true, hidden: true })
  confirmTokenHash: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  activatedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;
}

/** Each state a link entered, when, and who moved it there. */
@Entity({ tableName: 'guardian_link_transitions' })
@Index({ properties: ['link', 'createdAt'] })
export class GuardianLinkTransition {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => GuardianLink, { deleteRule: 'cascade' })
  link!: GuardianLink;

  @Enum({ items: () => LinkStatus })
  status!: LinkStatus;

  /** An admin's account is kept in global's database, the link in its family's region's: no foreign key. */
  @ManyToOne('User', { nullable: true, createForeignKeyConstraint: false })
  actor!: User | null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
