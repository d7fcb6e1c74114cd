import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';

/** AI messages and tokens of one user on one UTC day: the quota is counted against this row. */
@Entity({ tableName: 'ai_usage' })
export class AiUsage {
  [OptionalProps]?: 'messages' | 'tokens';

  @ManyToOne('User', { primary: true, deleteRule: 'cascade' })
  user!: User;

  @PrimaryKey({ type: 'date' })
  day!: string;

  @Property({ type: 'integer' })
  messages: number = 0;

  @Property({ type: 'bigint' })
  tokens: number = 0;
}
