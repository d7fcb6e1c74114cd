import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { User } from '../auth';

/** Its table keeps the name CodeLab's migration gave it, when portfolios were part of CodeLab. */
@Entity({ tableName: 'codelab_portfolios' })
export class Portfolio {
  [OptionalProps]?: 'headline' | 'bio' | 'projectIds' | 'certificateIds' | 'visibility' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade', unique: true })
  user!: User;

  @Property({ type: 'text' })
  @Unique()
  handle!: string;

  @Property({ type: 'text' })
  headline: string = '';

  @Property({ type: 'text' })
  bio: string = '';

  @Property({ type: 'jsonb' })
  projectIds: string[] = [];

  @Property({ type: 'jsonb' })
  certificateIds: string[] = [];

  @Property({ type: 'text' })
  visibility: 'private' | 'public' = 'private';

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
