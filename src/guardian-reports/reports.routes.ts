import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `reports.graphql`. The unsubscribe link is in reports.http.ts. */
export const reportsRoutes = restRoutes(__dirname, 'reports.graphql', [
  {
    method: 'get',
    path: '/guardian/reports',
    status: 200,
    operation: 'GuardianReports',
    summary: 'Report mails sent to the guardian, newest first',
    body: 'list',
  },
]);
