import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import type { FlagRule } from './evaluate';

/** A feature flag: off for everybody, or on for whoever one of its rules matches (everybody without rules). */
@Entity({ tableName: 'feature_flags' })
export class FeatureFlag {
  [OptionalProps]?: 'description' | 'enabled' | 'rules' | 'updatedBy' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'text' })
  description: string = '';

  @Property({ type: 'boolean' })
  enabled: boolean = false;

  @Property({ type: 'jsonb', default: "'[]'" })
  rules: FlagRule[] = [];

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  updatedBy: User | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
