import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `health.graphql`. */
export const healthRoutes = restRoutes(__dirname, 'health.graphql', [
  { method: 'get', path: '/health', status: 200, operation: 'Health', summary: 'Health of the API and its database' },
  { method: 'get', path: '/health/email', status: 200, operation: 'EmailHealth', summary: 'Health of the e-mail system' },
]);
