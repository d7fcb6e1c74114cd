import type { EntityManager } from '@mikro-orm/postgresql';
import { type Locale, User } from '../auth/user.entity';
import type { Deps } from '../server/deps';
import { Notification, type NotificationType } from './notification.entity';
import { NotificationSettings } from './notification-settings.entity';

/** A text in both languages of the platform; the recipient's locale picks one. */
export type LocalizedText = Record<Locale, string>;

export interface NotificationMessage {
  title: LocalizedText;
  body: LocalizedText;
  data?: Record<string, unknown>;
}

/** Published with ids only (NOTIFY payloads are small); subscribers load the notification. */
export const NOTIFICATION_ADDED = 'NOTIFICATION_ADDED';

export interface NotificationAddedEvent {
  userId: string;
  notificationId: string;
}

export class NotificationsService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: Deps,
  ) {}

  /**
   * Creates a notification for a user in their locale, unless they turned the type off
   * (then nothing is stored and null is returned). Subscribers on every instance hear of it.
   */
  async notify(userId: string, type: NotificationType, message: NotificationMessage): Promise<Notification | null> {
    const user = await this.em.findOne(User, { id: userId });
    if (!user || (await this.isDisabled(userId, type))) return null;
    const notification = this.em.create(Notification, {
      user,
      type,
      title: message.title[user.locale],
      body: message.body[user.locale],
      data: message.data ?? {},
    });
    await this.em.persistAndFlush(notification);
    this.deps.pubSub.publish(NOTIFICATION_ADDED, userId, { userId, notificationId: notification.id } satisfies NotificationAddedEvent);
    return notification;
  }

  async disabledTypes(userId: string): Promise<NotificationType[]> {
    const settings = await this.em.findOne(NotificationSettings, { user: userId });
    return settings?.disabledTypes ?? [];
  }

  private async isDisabled(userId: string, type: NotificationType): Promise<boolean> {
    return (await this.disabledTypes(userId)).includes(type);
  }
}
