import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `admin.graphql`. */
export const adminRoutes = restRoutes(__dirname, 'admin.graphql', [
  {
    method: 'get',
    path: '/admin/users',
    status: 200,
    operation: 'Users',
    summary: 'List accounts, newest first, filtered by role, status or e-mail (admins)',
    body: 'list',
  },
  {
    method: 'post',
    path: '/admin/users/:id/roles',
    status: 200,
    operation: 'GrantRole',
    summary: 'Grant a role (admins); recorded',
  },
  {
    method: 'delete',
    path: '/admin/users/:id/roles/:role',
    status: 200,
    operation: 'RemoveRole',
    summary: 'Remove a role (admins); recorded',
  },
  {
    method: 'post',
    path: '/admin/users/:id/suspend',
    status: 200,
    operation: 'SuspendUser',
    summary: 'Suspend an account: log-in and tokens refused with account_suspended, sessions ended (admins); audited',
  },
  {
    method: 'post',
    path: '/admin/users/:id/reactivate',
    status: 200,
    operation: 'ReactivateUser',
    summary: 'Lift a suspension (admins); audited',
  },
  {
    method: 'get',
    path: '/admin/audit',
    status: 200,
    operation: 'AuditEntries',
    summary: 'Privileged actions, newest first, by actor, action, target and time (admins)',
    body: 'list',
  },
  {
    method: 'get',
    path: '/admin/stats',
    status: 200,
    operation: 'PlatformStats',
    summary:
      'Users by role and status, active learners, enrollments, certificates, AI messages today, revenue this month (admins)',
  },
]);
