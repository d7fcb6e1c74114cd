import { defineArea } from '../kernel/area';
import { Notification } from './notification.entity';
import { NotificationSettings } from './notification-settings.entity';
import { NotificationsResolver } from './notifications.resolver';
import { notificationsRoutes } from './notifications.routes';
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
  entities: [Notification, NotificationSettings],
  resolvers: [NotificationsResolver],
  rules: notificationsRules,
  routes: notificationsRoutes,
  services: { notifications: (uow, services) => new NotificationsService(uow, (learnerId) => services.guardian.activeGuardianIdsOf(learnerId)) },
  personalData: { entities: [Notification, NotificationSettings] },
});
