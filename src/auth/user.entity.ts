import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property, OptionalProps } from '@mikro-orm/core';
import { GLOBAL_REGION } from '../db/regions';
import { AccountStatus, Locale, Role, Tier } from '../kernel/domain';

export { AccountStatus, Locale, Role, signupRoles, Tier } from '../kernel/domain';

@Entity({ tableName: 'users' })
@Index({ properties: ['createdAt', 'id'] })
export class User {
  [OptionalProps]?:
    | 'roles'
    | 'birthDate'
    | 'locale'
    | 'tier'
    | 'status'
    | 'emailVerifiedAt'
    | 'guardianEmail'
    | 'createdAt'
    | 'updatedAt'
    | 'emailVerified';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** Stored normalised (trimmed, lower case), so uniqueness holds whatever the client typed. */
  @Property({ type: 'text', unique: true })
  email!: string;

  @Property({ type: 'text', hidden: true })
  passwordHash!: string;

  @Property({ type: 'text' })
  displayName!: string;

  @Enum({ items: () => Role, array: true })
  roles: Role[] = [];

  @Property({ type: 'date', nullable: true })
  birthDate: string | null = null;

  @Property({ type: 'string', columnType: 'char(2)' })
  country!: string;

  /** The region whose database keeps the account's personal data (`global`, `vn`), from its country at sign-up. */
  @Property({ type: 'text', default: GLOBAL_REGION })
  region!: string;

  @Enum({ items: () => Locale })
  locale: Locale = Locale.en;

  @Enum({ items: () => Tier })
  tier: Tier = Tier.free;

  @Enum({ items: () => AccountStatus })
  status: AccountStatus = AccountStatus.active;

  @Property({ type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null = null;

  /** For a learner under 13: where the guardian invitation went. */
  @Property({ type: 'text', nullable: true })
  guardianEmail: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  get emailVerified(): boolean {
    return this.emailVerifiedAt !== null;
  }

  hasRole(role: Role): boolean {
    return this.roles.includes(role);
  }
}
