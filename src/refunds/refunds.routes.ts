import { restRoutes } from '../kernel/rest-route';

/** The REST paths of refunds; each runs the operation of that name in `refunds.graphql`. */
export const refundsRoutes = restRoutes(__dirname, 'refunds.graphql', [
  {
    method: 'post',
    path: '/refunds',
    status: 201,
    operation: 'RequestRefund',
    summary: 'Ask for a refund (the payer within REFUND_WINDOW_DAYS, or an admin)',
  },
  {
    method: 'get',
    path: '/refunds/me',
    status: 200,
    operation: 'MyRefunds',
    summary: "The caller's refunds",
    body: 'list',
  },
  {
    method: 'get',
    path: '/refunds',
    status: 200,
    operation: 'Refunds',
    summary: 'Every refund (admins)',
    body: 'list',
  },
  {
    method: 'post',
    path: '/refunds/:id/approve',
    status: 200,
    operation: 'ApproveRefund',
    summary: "Approve: processing, the provider's refund is asked (admins)",
  },
  {
    method: 'post',
    path: '/refunds/:id/reject',
    status: 200,
    operation: 'RejectRefund',
    summary: 'Reject a refund (admins)',
  },
]);
