import { Entity, Enum, OneToOne, OptionalProps, Property } from '@mikro-orm/core';
import { User } from '../auth';
import { NotificationType } from './notification.entity';

/** The notification types a user has turned off; a user without a row receives every type. */
@Entity({ tableName: 'notification_settings' })
export class NotificationSettings {
  [OptionalProps]?: 'disabledTypes' | 'updatedAt';

  @OneToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => NotificationType, array: true })
  disabledTypes: NotificationType[] = [];

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
