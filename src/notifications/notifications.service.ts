import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Locale } from '../auth';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { Notification, type NotificationType } from './notification.entity';
import { NotificationSettings } from './notification-settings.entity';
import { noSettingGiven, unknownNotification } from './notifications.errors';

/** A text in both languages of the platform; the recipient's locale picks one. */
export type LocalizedText = Record<Locale, string>;

export interface NotificationMessage {
  title: LocalizedText;
  body: LocalizedText;
  data?: Record<string, unknown>;
}

export type NotificationFilter = 'unread' | 'read' | 'all';

/** Events carry ids only (NOTIFY payloads are small); subscribers load what they show. */
export const NOTIFICATION_ADDED = 'NOTIFICATION_ADDED';
export const UNREAD_COUNT_CHANGED = 'UNREAD_COUNT_CHANGED';

export interface NotificationAddedEvent {
  userId: string;
  notificationId: string;
}

export interface SettingsValues {
  disabledTypes: NotificationType[];
  weeklyReport: boolean;
  monthlyReport: boolean;
  inactivityAlert: boolean;
}

export type SettingsChange = Partial<SettingsValues>;

export class NotificationsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * A learner's event that their guardians hear of too (progress, certificates): the learner gets
   * `learner`, each guardian with an active link gets `guardian` with the learner's id in its data.
   */
  async notifyWithGuardians(
    learnerId: string,
    type: NotificationType,
    messages: { learner: NotificationMessage; guardian: NotificationMessage },
  ): Promise<void> {
    await this.notify(learnerId, type, messages.learner);
    const guardianMessage = { ...messages.guardian, data: { ...messages.guardian.data, learnerId } };
    for (const guardianId of await this.services.guardian.activeGuardianIdsOf(learnerId))
      await this.notify(guardianId, type, guardianMessage);
  }

  /**
   * Creates a notification for a user in their locale, unless they turned the type off
   * (then nothing is stored and null is returned). Subscribers on every instance hear of it.
   */
  async notify(userId: string, type: NotificationType, message: NotificationMessage): Promise<Notification | null> {
    const user = await this.services.auth.findUser(userId);
    if (!user || (await this.disabledTypes(userId)).includes(type)) return null;
    const notification = this.em.create(Notification, {
      user,
      type,
      title: message.title[user.locale],
      body: message.body[user.locale],
      data: message.data ?? {},
    });
    await this.em.persistAndFlush(notification);
    this.uow.publish(NOTIFICATION_ADDED, userId, {
      userId,
      notificationId: notification.id,
    } satisfies NotificationAddedEvent);
    this.publishUnreadCount(userId);
    return notification;
  }

  /**
   * `notify`, unless the user has not read the same notification yet (same type and data): a request
   * asked again and again (a consent) reaches them once until they read it. Deliveries for the same
   * user and notification take turns, so two delivered at once cannot both find none unread.
   */
  async notifyOnceWhileUnread(
    userId: string,
    type: NotificationType,
    message: NotificationMessage,
  ): Promise<Notification | null> {
    const data = message.data ?? {};
    return this.uow.transaction(async (em) => {
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        `notification:${userId}:${type}:${JSON.stringify(data)}`,
      ]);
      if (await em.count(Notification, { user: userId, type, readAt: null, data })) return null;
      return this.notify(userId, type, message);
    });
  }

  async list(
    userId: string,
    filter: NotificationFilter,
    first: number,
    after?: string | null,
  ): Promise<Page<Notification>> {
    const where: FilterQuery<Notification> = { user: userId };
    if (filter === 'unread') where.readAt = null;
    if (filter === 'read') where.readAt = { $ne: null };
    const rows = await this.em.find(
      Notification,
      { ...where, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(Notification, where));
  }

  /** One row, kept by the database (migration notification_counters), however many a user has. */
  async unreadCount(userId: string): Promise<number> {
    const rows = await this.em
      .getConnection()
      .execute<{ unread: number }[]>('select unread from notification_counters where user_id = ?', [userId]);
    return rows[0]?.unread ?? 0;
  }

  /** The caller's own notification; anybody else's is not found. */
  async find(userId: string, id: string): Promise<Notification> {
    const notification = isId(id) ? await this.em.findOne(Notification, { id, user: userId }) : null;
    if (!notification) throw unknownNotification();
    return notification;
  }

  /** The user's notifications among these ids, as `find` reads one (the graph's `nodes`). */
  findMany(userId: string, ids: string[]): Promise<Notification[]> {
    return this.em.find(Notification, { id: { $in: ids.filter(isId) }, user: userId });
  }

  /**
   * A new notification for its live subscribers: those of every event that arrived together are
   * read in one statement (a burst of events to many subscribers costs one read, not one each).
   */
  async added(userId: string, id: string): Promise<Notification> {
    const notification = isId(id)
      ? await this.uow
          .shared<string, Notification | null>('notifications.added', async (ids, em) => {
            const rows = await em.find(Notification, { id: { $in: [...new Set(ids)] } });
            const byId = new Map(rows.map((row) => [row.id, row]));
            return ids.map((key) => byId.get(key) ?? null);
          })
          .load(id)
      : null;
    if (!notification || notification.user.id !== userId) throw unknownNotification();
    return notification;
  }

  /** Marking a read notification again keeps its first read time. */
  async markRead(userId: string, id: string): Promise<Notification> {
    const notification = await this.find(userId, id);
    if (notification.readAt) return notification;
    notification.readAt = new Date();
    await this.em.flush();
    this.publishUnreadCount(userId);
    return notification;
  }

  async markAllRead(userId: string): Promise<number> {
    const updated = await this.em.nativeUpdate(Notification, { user: userId, readAt: null }, { readAt: new Date() });
    if (updated) this.publishUnreadCount(userId);
    return updated;
  }

  async delete(userId: string, id: string): Promise<void> {
    const notification = await this.find(userId, id);
    const wasUnread = !notification.readAt;
    await this.em.removeAndFlush(notification);
    if (wasUnread) this.publishUnreadCount(userId);
  }

  async disabledTypes(userId: string): Promise<NotificationType[]> {
    const settings = await this.em.findOne(NotificationSettings, { user: userId });
    return settings?.disabledTypes ?? [];
  }

  /** Every setting of the user's (a user without a row gets everything). */
  async settings(userId: string): Promise<SettingsValues> {
    const row = await this.em.findOne(NotificationSettings, { user: userId }, { refresh: true });
    return {
      disabledTypes: row?.disabledTypes ?? [],
      weeklyReport: row?.weeklyReport ?? true,
      monthlyReport: row?.monthlyReport ?? true,
      inactivityAlert: row?.inactivityAlert ?? true,
    };
  }

  /** Changes what is given, in one statement (two changes at once both stay). */
  async updateSettings(userId: string, change: SettingsChange): Promise<SettingsValues> {
    if (Object.values(change).every((value) => value === undefined)) {
      throw noSettingGiven();
    }
    const disabledTypes = change.disabledTypes ? JSON.stringify([...new Set(change.disabledTypes)].sort()) : null;
    const flag = (value: boolean | undefined) => (typeof value === 'boolean' ? value : null);
    const values = [flag(change.weeklyReport), flag(change.monthlyReport), flag(change.inactivityAlert)];
    await this.em.execute(
      `insert into notification_settings (user_id, disabled_types, weekly_report, monthly_report, inactivity_alert, updated_at)
       values (?, array(select jsonb_array_elements_text(?::jsonb)), coalesce(?, true), coalesce(?, true), coalesce(?, true), now())
       on conflict (user_id) do update set
         disabled_types = case when ?::jsonb is null then notification_settings.disabled_types else array(select jsonb_array_elements_text(?::jsonb)) end,
         weekly_report = coalesce(?, notification_settings.weekly_report),
         monthly_report = coalesce(?, notification_settings.monthly_report),
         inactivity_alert = coalesce(?, notification_settings.inactivity_alert), updated_at = now()`,
      [userId, disabledTypes, ...values, disabledTypes, disabledTypes, ...values],
    );
    return this.settings(userId);
  }

  private publishUnreadCount(userId: string): void {
    this.uow.publish(UNREAD_COUNT_CHANGED, userId, { userId });
  }
}
