import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Locale, type User } from '../auth';

export enum ContactStatus {
  open = 'open',
  resolved = 'resolved',
}

/** A message sent through the contact form, by anybody; admins read and resolve it. */
@Entity({ tableName: 'contact_messages' })
@Index({ properties: ['createdAt', 'id'] })
@Index({ properties: ['status', 'createdAt'] })
export class ContactMessage {
  [OptionalProps]?: 'status' | 'resolvedBy' | 'resolvedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  message!: string;

  @Enum({ items: () => Locale })
  locale!: Locale;

  @Enum({ items: () => ContactStatus })
  status: ContactStatus = ContactStatus.open;

  @ManyToOne('User', { nullable: true, deleteRule: 'set null' })
  resolvedBy: User | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  resolvedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();
}
