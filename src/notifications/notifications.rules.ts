import { allow } from 'graphql-shield';
import { isAuthenticated, isSelf } from '../permissions/rules';

/** Everyone signed in has an inbox; the service scopes every query to the caller. */
export const notificationsRules = {
  Query: {
    notifications: isAuthenticated,
    unreadNotificationCount: isAuthenticated,
    notificationSettings: isAuthenticated,
  },
  Mutation: {
    markNotificationRead: isAuthenticated,
    markAllNotificationsRead: isAuthenticated,
    deleteNotification: isAuthenticated,
    updateNotificationSettings: isAuthenticated,
  },
  Subscription: { notificationAdded: isAuthenticated, unreadCountChanged: isAuthenticated },
  Notification: allow,
  NotificationConnection: allow,
  NotificationEdge: allow,
  UnreadCount: allow,
  ReadAllResult: allow,
  NotificationSettingsView: allow,
  User: { notifications: isSelf, unreadNotificationCount: isSelf },
};
