import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, OptionalProps } from '@mikro-orm/core';
import { Role, type User } from '../auth';

export enum RoleChangeAction {
  granted = 'granted',
  removed = 'removed',
}

/** Who gave or took which role from whom, and when: kept for as long as the account exists. */
@Entity({ tableName: 'role_changes' })
@Index({ properties: ['user', 'createdAt'] })
export class RoleChange {
  [OptionalProps]?: 'actor' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  user!: User;

  /**
   * Null when the change came from the command line (`admin:create`). No foreign key: the change is
   * kept in the account's home region, and the admin who made it may live in another.
   */
  @ManyToOne('User', { nullable: true, createForeignKeyConstraint: false })
  actor: User | null = null;

  @Enum({ items: () => Role })
  role!: Role;

  @Enum({ items: () => RoleChangeAction })
  action!: RoleChangeAction;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
