import { allRowsOf, rowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { Notification, type NotificationType } from './notification.entity';
import { NotificationCounter } from './notification-counter.entity';
import { NotificationSettings } from './notification-settings.entity';
import { NotificationsResolver, NotificationsUserEdges, notificationsNodes } from './notifications.resolver';
import { notificationsRoutes } from './notifications.routes';
import { notificationReactions } from './notifications.reactions';
import { notificationsRules } from './notifications.rules';
import { type NotificationMessage, NotificationsService } from './notifications.service';
import { Migration20261123150000_report_toggles } from './migrations/Migration20261123150000_report_toggles';
import { Migration20261130000700_report_toggles_view } from './migrations/Migration20261130000700_report_toggles_view';
import { Migration20261122010000_notifications } from './migrations/Migration20261122010000_notifications';
import { Migration20261122050000_notification_counters } from './migrations/Migration20261122050000_notification_counters';
import { Migration20261123100000_schema_as_declared } from './migrations/Migration20261123100000_schema_as_declared';

export { NotificationType } from './notification.entity';
export type { NotificationMessage, NotificationsService } from './notifications.service';

declare module '../kernel/events' {
  interface DomainEvents {
    /**
     * Another area's change warrants a notification to these people: written with the change, delivered once.
     * The type is named by its value, so that an area which only announces needs nothing of this one but the event.
     * `onceWhileUnread`: a recipient who has not read the same request yet (same type and data) is not told again.
     */
    'notification.requested': {
      recipients: string[];
      notificationType: `${NotificationType}`;
      message: NotificationMessage;
      onceWhileUnread?: boolean;
    };
    /**
     * A learner's milestone (progress) that their guardians hear of too: the learner gets `learner`, each guardian
     * with an active link at delivery gets `guardian` with the learner's id in its data (as `notifyWithGuardians`).
     * An event of its own, since who the guardians are is for this area to read when it delivers, not for the raiser.
     */
    'notification.requested_with_guardians': {
      learnerId: string;
      notificationType: `${NotificationType}`;
      learner: NotificationMessage;
      guardian: NotificationMessage;
    };
  }
}

declare module '../kernel/services' {
  interface Services {
    notifications: NotificationsService;
  }
}

export const notificationsArea = defineArea({
  name: 'notifications',
  uses: ['auth', 'guardian'],
  entities: [Notification, NotificationSettings, NotificationCounter],
  resolvers: [NotificationsResolver, NotificationsUserEdges],
  nodes: notificationsNodes,
  rules: notificationsRules,
  routes: notificationsRoutes,
  migrations: [
    { name: 'Migration20261122010000_notifications', class: Migration20261122010000_notifications },
    { name: 'Migration20261122050000_notification_counters', class: Migration20261122050000_notification_counters },
    { name: 'Migration20261123100000_schema_as_declared', class: Migration20261123100000_schema_as_declared },
    { name: 'Migration20261123150000_report_toggles', class: Migration20261123150000_report_toggles },
    { name: 'Migration20261130000700_report_toggles_view', class: Migration20261130000700_report_toggles_view },
  ],
  services: { notifications: (uow, services) => new NotificationsService(uow, services) },
  on: notificationReactions,
  personalData: {
    entities: [Notification, NotificationSettings, NotificationCounter],
    export: async (userId, _services, uow) => ({
      settings: await allRowsOf(uow, NotificationSettings, { user: userId }),
      notifications: rowsOf(uow, Notification, { user: userId }),
    }),
    // The person's notifications go, and others' notifications about them (a guardian's, naming the learner).
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(Notification, { user: userId });
      await uow.em.execute(`delete from notifications where data::text like ?`, [`%${userId}%`]);
      await uow.em.execute(`delete from notification_counters where user_id = ?`, [userId]);
      await uow.em.nativeDelete(NotificationSettings, { user: userId });
    },
  },
});
