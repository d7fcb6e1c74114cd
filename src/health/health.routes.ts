import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `health.graphql`. */
export const healthRoutes = restRoutes(__dirname, 'health.graphql', [
  { method: 'get', path: '/health', status: 200, operation: 'Health', summary: 'Health of the API and its database' },
  { method: 'get', path: '/health/live', status: 200, operation: 'Liveness', summary: 'Liveness: the process answers' },
  {
    method: 'get',
    path: '/health/ready',
    status: 200,
    operation: 'Readiness',
    summary: 'Readiness: the database answers, every migration is applied and the outbox relay runs (503 otherwise)',
  },
  {
    method: 'get',
    path: '/health/email',
    status: 200,
    operation: 'EmailHealth',
    summary: 'Health of the e-mail system',
  },
]);
