import { restRoutes } from '../kernel/rest-route';

/** The REST paths of commerce; each runs the operation of that name in `commerce.graphql`. Webhooks and the sandbox page are `commerce.http.ts`. */
export const commerceRoutes = restRoutes(__dirname, 'commerce.graphql', [
  { method: 'get', path: '/products', status: 200, operation: 'Products', summary: 'Published products (admins: any, ?status=)', body: 'list' },
  { method: 'get', path: '/products/:id', status: 200, operation: 'Product', summary: 'A product' },
  { method: 'post', path: '/products', status: 201, operation: 'CreateProduct', summary: 'Create a platform product, as a draft (admins)' },
  { method: 'put', path: '/products/:id', status: 200, operation: 'UpdateProduct', summary: 'Edit a product (admins)' },
  { method: 'post', path: '/products/:id/publish', status: 200, operation: 'PublishProduct', summary: 'Publish a product (admins)' },
  { method: 'post', path: '/products/:id/archive', status: 200, operation: 'ArchiveProduct', summary: 'Archive a product (admins)' },
  {
    method: 'get',
    path: '/marketplace',
    status: 200,
    operation: 'Marketplace',
    summary: 'Published products with seller and sales: q, kind, minPrice, maxPrice, currency, sort=popular|newest|price_asc|price_desc',
    body: 'list',
  },
  { method: 'get', path: '/marketplace/me/sales', status: 200, operation: 'MySales', summary: "A creator's sales and earnings after the platform's fee" },
  { method: 'get', path: '/marketplace/:productId', status: 200, operation: 'MarketplaceProduct', summary: 'A published product of the marketplace' },
  { method: 'post', path: '/marketplace/listings', status: 201, operation: 'SubmitListing', summary: "A creator's own course or bundle, in review" },
  { method: 'post', path: '/marketplace/listings/:id/approve', status: 200, operation: 'ApproveListing', summary: 'Publish a listing (content admins)' },
  { method: 'post', path: '/marketplace/listings/:id/reject', status: 200, operation: 'RejectListing', summary: 'Reject a listing with a reason (content admins)' },
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
        description: 'Sent again with the same body within 24 hours, the first answer is given again and nothing is charged twice; with another body, 409 conflict.',
      },
    },
  },
  { method: 'get', path: '/payments/me', status: 200, operation: 'MyPayments', summary: 'Payments the caller made or benefits from', body: 'list' },
  { method: 'get', path: '/payments/requests', status: 200, operation: 'PurchaseRequests', summary: "Learners' purchase requests (their guardians; a learner their own)", body: 'list' },
  { method: 'post', path: '/payments/requests/:id/approve', status: 200, operation: 'ApprovePurchaseRequest', summary: 'A guardian approves: a checkout for them to pay' },
  { method: 'post', path: '/payments/requests/:id/decline', status: 200, operation: 'DeclinePurchaseRequest', summary: 'A guardian declines' },
  { method: 'get', path: '/payments/:id', status: 200, operation: 'Payment', summary: 'A payment (payer, beneficiary, admins)' },
  { method: 'get', path: '/entitlements/me', status: 200, operation: 'MyEntitlements', summary: "The caller's tier and entitlements" },
  { method: 'post', path: '/entitlements/grants', status: 201, operation: 'GrantEntitlement', summary: 'Grant a tier or course (admins)' },
  { method: 'post', path: '/entitlements/:id/revoke', status: 200, operation: 'RevokeEntitlement', summary: 'Revoke an entitlement (admins)' },
  { method: 'post', path: '/refunds', status: 201, operation: 'RequestRefund', summary: 'Ask for a refund (the payer within REFUND_WINDOW_DAYS, or an admin)' },
  { method: 'get', path: '/refunds/me', status: 200, operation: 'MyRefunds', summary: "The caller's refunds", body: 'list' },
  { method: 'get', path: '/refunds', status: 200, operation: 'Refunds', summary: 'Every refund (admins)', body: 'list' },
  { method: 'post', path: '/refunds/:id/approve', status: 200, operation: 'ApproveRefund', summary: "Approve: processing, the provider's refund is asked (admins)" },
  { method: 'post', path: '/refunds/:id/reject', status: 200, operation: 'RejectRefund', summary: 'Reject a refund (admins)' },
  { method: 'get', path: '/admin/ledger/balances', status: 200, operation: 'LedgerBalances', summary: 'Balance per ledger account and currency (admins)' },
]);
