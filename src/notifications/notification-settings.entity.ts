import { Entity, Enum, OneToOne, OptionalProps, Property } from '@mikro-orm/core';
import type { User } from '../auth';
import { NotificationType } from './notification.entity';

/**
 * The notification types a user has turned off, and a guardian's report mails (docs/domain.md#privacy-operations:
 * `weeklyReport`, `monthlyReport`, `inactivityAlert`, also turned off by a mail's unsubscribe link);
 * a user without a row receives everything.
 */
@Entity({ tableName: 'notification_settings' })
export class NotificationSettings {
  [OptionalProps]?: 'disabledTypes' | 'weeklyReport' | 'monthlyReport' | 'inactivityAlert' | 'updatedAt';

  @OneToOne('User', { primary: true, deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: () => NotificationType, array: true })
  disabledTypes: NotificationType[] = [];

  @Property({ type: 'boolean', default: true })
  weeklyReport: boolean = true;

  @Property({ type: 'boolean', default: true })
  monthlyReport: boolean = true;

  @Property({ type: 'boolean', default: true })
  inactivityAlert: boolean = true;

  @Property({ type: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
