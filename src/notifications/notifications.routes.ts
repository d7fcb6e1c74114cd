import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `notifications.graphql`. */
export const notificationsRoutes = restRoutes(__dirname, 'notifications.graphql', [
  {
    method: 'get',
    path: '/notifications',
    status: 200,
    operation: 'Notifications',
    summary: "The caller's notifications, newest first; filter unread, read or all",
    body: 'list',
  },
  {
    method: 'get',
    path: '/notifications/unread-count',
    status: 200,
    operation: 'UnreadCount',
    summary: 'Number of unread notifications',
  },
  {
    method: 'post',
    path: '/notifications/read-all',
    status: 200,
    operation: 'ReadAll',
    summary: 'Mark every notification read',
  },
  {
    method: 'post',
    path: '/notifications/:id/read',
    status: 200,
    operation: 'MarkRead',
    summary: 'Mark one notification read',
  },
  {
    method: 'delete',
    path: '/notifications/:id',
    status: 204,
    operation: 'DeleteNotification',
    summary: 'Delete one notification',
  },
  {
    method: 'get',
    path: '/notifications/settings',
    status: 200,
    operation: 'NotificationSettings',
    summary:
      'Notification types the caller turned off, and the guardian report toggles weeklyReport, monthlyReport, inactivityAlert',
  },
  {
    method: 'put',
    path: '/notifications/settings',
    status: 200,
    operation: 'UpdateNotificationSettings',
    summary:
      'Turn notification types off (or on again), and guardian report mails (weeklyReport, monthlyReport, inactivityAlert); only what is given changes',
  },
]);
