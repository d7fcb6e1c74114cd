import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, OptionalProps } from '@mikro-orm/core';
import { User } from './user.entity';

export enum AccountTokenPurpose {
  verify_email = 'verify_email',
  reset_password = 'reset_password',
}

/** A single-use token sent by mail (e-mail verification, password reset), stored hashed. */
@Entity({ tableName: 'account_tokens' })
export class AccountToken {
  [OptionalProps]?: 'usedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => AccountTokenPurpose })
  purpose!: AccountTokenPurpose;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
