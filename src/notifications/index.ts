import { defineArea } from '../kernel/area';
import { Notification } from './notification.entity';
import { NotificationCounter } from './notification-counter.entity';
import { NotificationSettings } from './notification-settings.entity';
import { NotificationsResolver } from './notifications.resolver';
import { notificationsRoutes } from './notifications.routes';
import { notificationReactions } from './notifications.reactions';
import { notificationsRules } from './notifications.rules';
import { NotificationsService } from './notifications.service';


export { NotificationType } from './notification.entity';
export type { NotificationsService } from './notifications.service';

declare module '../kernel/services' {
  interface Services {
    notifications: NotificationsService;
  }
}

export const notificationsArea = defineArea({
  name: 'notifications',
  entities: [Notification, NotificationSettings, NotificationCounter],
  resolvers: [NotificationsResolver],
  rules: notificationsRules,
  routes: notificationsRoutes,
  services: { notifications: (uow, services) => new NotificationsService(uow, services) },
  on: notificationReactions,
  personalData: { entities: [Notification, NotificationSettings, NotificationCounter] },
});
