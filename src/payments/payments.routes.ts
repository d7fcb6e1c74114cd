import { restRoutes } from '../kernel/rest-route';

/** The REST paths of payments and the ledger; each runs the operation of that name in `payments.graphql`. Webhooks and the sandbox page are `payments.http.ts`. */
export const paymentsRoutes = restRoutes(__dirname, 'payments.graphql', [
  {
    method: 'get',
    path: '/marketplace/me/sales',
    status: 200,
    operation: 'MySales',
    summary: "A creator's sales and earnings after the platform's fee",
  },
  {
    method: 'post',
    path: '/payments/checkout',
    status: 201,
    operation: 'Checkout',
    summary: 'Start a payment (Idempotency-Key header); a learner under 18 gets 202 with a purchase request',
    // A learner under 18 asks a guardian (202 with the purchase request); anyone else gets the payment.
    answers: [
      { status: 202, field: 'purchaseRequest', wrapped: true },
      { status: 201, field: 'payment', wrapped: false },
    ],
    headers: {
      idempotencyKey: {
        name: 'Idempotency-Key',
        description:
          'Sent again with the same body within 24 hours, the first answer is given again and nothing is charged twice; with another body, 409 conflict.',
      },
    },
  },
  {
    method: 'get',
    path: '/payments/me',
    status: 200,
    operation: 'MyPayments',
    summary: 'Payments the caller made or benefits from',
    body: 'list',
  },
  {
    method: 'get',
    path: '/payments/requests',
    status: 200,
    operation: 'PurchaseRequests',
    summary: "Learners' purchase requests (their guardians; a learner their own)",
    body: 'list',
  },
  {
    method: 'post',
    path: '/payments/requests/:id/approve',
    status: 200,
    operation: 'ApprovePurchaseRequest',
    summary: 'A guardian approves: a checkout for them to pay',
  },
  {
    method: 'post',
    path: '/payments/requests/:id/decline',
    status: 200,
    operation: 'DeclinePurchaseRequest',
    summary: 'A guardian declines',
  },
  {
    method: 'get',
    path: '/payments/:id',
    status: 200,
    operation: 'Payment',
    summary: 'A payment (payer, beneficiary, admins)',
  },
  {
    method: 'get',
    path: '/admin/ledger/balances',
    status: 200,
    operation: 'LedgerBalances',
    summary: 'Balance per ledger account and currency (admins)',
  },
]);
