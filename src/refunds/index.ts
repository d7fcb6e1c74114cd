import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { settleRefundsThrough } from '../payments';
import { Refund } from './refunds.entity';
import { Migration20261204000200_refund_requester_of_any_region } from './migrations/Migration20261204000200_refund_requester_of_any_region';
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
 * through payments, settled by the provider's answer. The table was made by the commerce migration of
 * payments; its later changes are this area's.
 */
export const refundsArea = defineArea({
  name: 'refunds',
  uses: ['audit', 'auth', 'catalog', 'payments'],
  entities: [Refund],
  migrations: [
    {
      name: 'Migration20261204000200_refund_requester_of_any_region',
      class: Migration20261204000200_refund_requester_of_any_region,
    },
  ],
  resolvers: [RefundsResolver],
  nodes: refundsNodes,
  rules: refundsRules,
  routes: refundsRoutes,
  services: { refunds: (uow, services) => new RefundsService(uow, services) },
  personalData: {
    entities: [Refund],
    export: async (userId, _services, uow) => ({ refunds: await allRowsOf(uow, Refund, { requestedBy: userId }) }),
    // Refunds are records the law makes us keep, as payments are: they stay, pointing at the
    // pseudonym the account becomes (set here: a requester may be of another region, so no foreign key follows it).
    erase: async (userId, pseudonym, _services, uow) => {
      await uow.em.nativeUpdate(Refund, { requestedBy: userId }, { requestedBy: pseudonym });
    },
  },
});
