import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { settleRefundsThrough } from '../payments';
import { Refund } from './refunds.entity';
import { RefundsResolver, refundsNodes } from './refunds.resolver';
import { refundsRoutes } from './refunds.routes';
import { refundsRules } from './refunds.rules';
import { RefundsService } from './refunds.service';
import { refundSettlement } from './settlement';

export type { RefundsService } from './refunds.service';

declare module '../kernel/services' {
  interface Services {
    refunds: RefundsService;
  }
}

// A provider's answer settles the refund's row in the transaction where payments moves the money.
settleRefundsThrough(refundSettlement);

/**
 * Refunds of payments (docs/commerce.md): asked for, decided by an admin, asked of the provider
 * through payments, settled by the provider's answer. The table's migration is still the commerce
 * migration of payments that made it.
 */
export const refundsArea = defineArea({
  name: 'refunds',
  uses: ['audit', 'auth', 'catalog', 'payments'],
  entities: [Refund],
  resolvers: [RefundsResolver],
  nodes: refundsNodes,
  rules: refundsRules,
  routes: refundsRoutes,
  services: { refunds: (uow, services) => new RefundsService(uow, services) },
  personalData: {
    entities: [Refund],
    export: async (userId, _services, uow) => ({ refunds: await allRowsOf(uow, Refund, { requestedBy: userId }) }),
    // Refunds are records the law makes us keep, as payments are: they stay, pointing at the
    // pseudonym the account becomes; nothing goes at the erasure itself.
    erase: async () => {},
  },
});
