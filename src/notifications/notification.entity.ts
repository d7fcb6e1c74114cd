import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { User } from '../auth';

/** The notification types of docs/domain.md; users may turn any of them off. */
export enum NotificationType {
  progress = 'progress',
  certificate = 'certificate',
  creator_message = 'creator_message',
  system = 'system',
  guardian = 'guardian',
  consent = 'consent',
}

/** One in-app notification, written in the recipient's locale when it was created. */
@Entity({ tableName: 'notifications' })
@Index({ properties: ['user', 'createdAt', 'id'] })
@Index({
  name: 'notifications_unread_index',
  expression: 'create index "notifications_unread_index" on "notifications" ("user_id") where "read_at" is null',
})
export class Notification {
  [OptionalProps]?: 'data' | 'readAt' | 'createdAt' | 'read';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne('User', { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => NotificationType })
  type!: NotificationType;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'jsonb' })
  data: Record<string, unknown> = {};

  @Property({ type: 'timestamptz', nullable: true })
  readAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  get read(): boolean {
    return this.readAt !== null;
  }
}
