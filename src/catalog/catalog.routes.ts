import { restRoutes } from '../kernel/rest-route';

/** The REST paths of the catalog; each runs the operation of that name in `catalog.graphql`. */
export const catalogRoutes = restRoutes(__dirname, 'catalog.graphql', [
  {
    method: 'get',
    path: '/products',
    status: 200,
    operation: 'Products',
    summary: 'Published products (admins: any, ?status=)',
    body: 'list',
  },
  { method: 'get', path: '/products/:id', status: 200, operation: 'Product', summary: 'A product' },
  {
    method: 'post',
    path: '/products',
    status: 201,
    operation: 'CreateProduct',
    summary: 'Create a platform product, as a draft (admins)',
  },
  { method: 'put', path: '/products/:id', status: 200, operation: 'UpdateProduct', summary: 'Edit a product (admins)' },
  {
    method: 'post',
    path: '/products/:id/publish',
    status: 200,
    operation: 'PublishProduct',
    summary: 'Publish a product (admins)',
  },
  {
    method: 'post',
    path: '/products/:id/archive',
    status: 200,
    operation: 'ArchiveProduct',
    summary: 'Archive a product (admins)',
  },
  {
    method: 'get',
    path: '/marketplace',
    status: 200,
    operation: 'Marketplace',
    summary:
      'Published products with seller and sales: q, kind, minPrice, maxPrice, currency, sort=popular|newest|price_asc|price_desc',
    body: 'list',
  },
  {
    method: 'get',
    path: '/marketplace/:productId',
    status: 200,
    operation: 'MarketplaceProduct',
    summary: 'A published product of the marketplace',
  },
  {
    method: 'post',
    path: '/marketplace/listings',
    status: 201,
    operation: 'SubmitListing',
    summary: "A creator's own course or bundle, in review",
  },
  {
    method: 'post',
    path: '/marketplace/listings/:id/approve',
    status: 200,
    operation: 'ApproveListing',
    summary: 'Publish a listing (content admins)',
  },
  {
    method: 'post',
    path: '/marketplace/listings/:id/reject',
    status: 200,
    operation: 'RejectListing',
    summary: 'Reject a listing with a reason (content admins)',
  },
]);
