import { Entity, ManyToOne, OneToOne, OptionalProps, Property } from '@mikro-orm/core';
import type { User } from '../auth';

/** A guardian's restrictions on a learner's AI use, obeyed by the AI proxy; no row: no restriction. */
@Entity({ tableName: 'learner_ai_access' })
export class LearnerAiAccess {
  [OptionalProps]?: 'enabled' | 'memoryEnabled' | 'dailyMessageLimit' | 'updatedAt';

  @OneToOne('User', { primary: true, deleteRule: 'cascade' })
  learner!: User;

  @Property({ type: 'boolean' })
  enabled: boolean = true;

  @Property({ type: 'boolean' })
  memoryEnabled: boolean = true;

  @Property({ type: 'integer', nullable: true })
  dailyMessageLimit: number | null = null;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  updatedBy!: User | null;

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
