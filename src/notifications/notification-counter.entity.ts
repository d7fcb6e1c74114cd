import { Check, Entity, OneToOne, Property } from '@mikro-orm/core';
import type { User } from '../auth';

/**
 * A user's unread count, kept by a trigger on notifications (migration notification_counters):
 * one row to read however many notifications a user has. The service only reads it.
 */
@Entity({ tableName: 'notification_counters' })
@Check({ name: 'notification_counters_unread_check', expression: '"unread" >= 0' })
export class NotificationCounter {
  @OneToOne({ entity: 'User', primary: true, deleteRule: 'cascade', fieldName: 'user_id' })
  user!: User;

  @Property({ type: 'integer', default: 0 })
  unread!: number;
}
