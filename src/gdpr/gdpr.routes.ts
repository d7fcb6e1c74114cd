import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `gdpr.graphql`. The download is in gdpr.http.ts. */
export const gdprRoutes = restRoutes(__dirname, 'gdpr.graphql', [
  {
    method: 'post',
    path: '/gdpr/export',
    status: 202,
    operation: 'RequestDataExport',
    summary: "Export the caller's data (or a linked learner's) as a ZIP; the link is mailed",
  },
  {
    method: 'post',
    path: '/gdpr/delete',
    status: 202,
    operation: 'RequestAccountDeletion',
    summary: 'Erase the account (or a linked learner’s) after a grace period; every other session ends',
  },
  {
    method: 'get',
    path: '/gdpr/requests',
    status: 200,
    operation: 'GdprRequests',
    summary: 'Privacy requests the caller made or that concern the caller',
    body: 'list',
  },
  {
    method: 'get',
    path: '/gdpr/requests/:id',
    status: 200,
    operation: 'GdprRequest',
    summary: 'One privacy request, with its download link when ready',
  },
  {
    method: 'post',
    path: '/gdpr/requests/:id/cancel',
    status: 200,
    operation: 'CancelGdprRequest',
    summary: 'Cancel an erasure within its grace period',
  },
  {
    method: 'get',
    path: '/admin/gdpr/requests',
    status: 200,
    operation: 'AdminGdprRequests',
    summary: 'Admins: every privacy request with its legal deadline, flagged when near',
    body: 'list',
  },
]);
