import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { Product } from './catalog.entity';
import { CatalogResolver, catalogNodes } from './catalog.resolver';
import { catalogRoutes } from './catalog.routes';
import { catalogRules } from './catalog.rules';
import { CatalogService } from './catalog.service';
import { Migration20261204000000_sales_counted } from './migrations/Migration20261204000000_sales_counted';
import { countSale } from './sales-count';
import { SaleCounted } from './sale-counted.entity';

export type { CatalogService } from './catalog.service';
export { type Price, PriceInterval, type Product, ProductKind, ProductStatus } from './catalog.entity';
export { AMOUNT } from './catalog.types';
export { saleProductJoin } from './product-join';

declare module '../kernel/services' {
  interface Services {
    catalog: CatalogService;
  }
}

/**
 * What the platform sells and the creators' marketplace listings (products, their review, the
 * marketplace's search). Payments sell these products; the table's migrations are still the
 * commerce migrations that made it.
 */
export const catalogArea = defineArea({
  name: 'catalog',
  uses: ['audit', 'auth', 'courses', 'entitlements', 'notifications'],
  sharedTables: ['products'],
  entities: [Product, SaleCounted],
  migrations: [{ name: 'Migration20261204000000_sales_counted', class: Migration20261204000000_sales_counted }],
  resolvers: [CatalogResolver],
  nodes: catalogNodes,
  rules: catalogRules,
  routes: catalogRoutes,
  services: { catalog: (uow, services) => new CatalogService(uow, services) },
  on: {
    // The marketplace's sales count, once per payment: the outbox row goes in the payment's transaction.
    'payment.succeeded': ({ paymentId, productId }, _services, uow) => countSale(uow, paymentId, productId),
  },
  personalData: {
    // A creator's listings stay on sale after they go (their seller is set null with the account).
    entities: [Product],
    export: async (userId, _services, uow) => ({ listings: await allRowsOf(uow, Product, { seller: userId }) }),
    // Nothing goes at the erasure itself: a listing names its seller only through the account row.
    erase: async () => {},
  },
});
