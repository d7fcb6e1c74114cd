import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `admin.graphql`. */
export const adminRoutes = restRoutes(__dirname, 'admin.graphql', [
  { method: 'get', path: '/admin/users', status: 200, operation: 'Users', summary: 'List accounts, newest first, filtered by role, status or e-mail (admins)', body: 'list' },
  { method: 'post', path: '/admin/users/:id/roles', status: 200, operation: 'GrantRole', summary: 'Grant a role (admins); recorded' },
  { method: 'delete', path: '/admin/users/:id/roles/:role', status: 200, operation: 'RemoveRole', summary: 'Remove a role (admins); recorded' },
]);
