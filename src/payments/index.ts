import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { type Deps, perProcess } from '../kernel/deps';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import {
  IdempotencyKey,
  LedgerBalance,
  LedgerEntry,
  LedgerTransaction,
  Payment,
  PurchaseRequest,
  WebhookEvent,
} from './payments.entity';
import { paymentsHttp } from './payments.http';
import { definePaymentsJobs } from './payments.jobs';
import { PaymentsResolver, PaymentsUserEdges, paymentsNodes } from './payments.resolver';
import { paymentsRoutes } from './payments.routes';
import { paymentsRules } from './payments.rules';
import { PaymentViewFields } from './payment-view.resolver';
import { PaymentsService } from './payments.service';

export type { PaymentsService } from './payments.service';
export { type Payment, PaymentStatus } from './payments.entity';
export { paymentNotFound } from './payments.errors';
export { regionOfPayment } from './payment-region';
export { type RefundSettlement, settleRefundsThrough } from './refund-settlement';
import { Migration20261124000000_commerce } from './migrations/Migration20261124000000_commerce';
import { Migration20261125000000_commerce_review } from './migrations/Migration20261125000000_commerce_review';
import { Migration20261126000000_entitlement_revoked_reason } from './migrations/Migration20261126000000_entitlement_revoked_reason';
import { pseudonymiseLedger } from './erasure';
import { Migration20261127100000_ledger_pseudonyms } from './migrations/Migration20261127100000_ledger_pseudonyms';
import { createProviders } from './providers';
import { SANDBOX_SIGNATURE_HEADER, signSandbox as signSandboxBody } from './providers/sandbox';

declare module '../kernel/events' {
  interface DomainEvents {
    /** A payment succeeded (raised in the transaction that records it). */
    'payment.succeeded': { paymentId: string; productId: string };
  }
}

declare module '../kernel/services' {
  interface Services {
    payments: PaymentsService;
  }
}

type InUnit = (work: (services: Services, uow: UnitOfWork) => Promise<void>) => Promise<void>;
const units = new WeakMap<Deps, InUnit>();

/**
 * The providers, made once per process. The sandbox confirms refunds with a signed webhook that
 * the service delivers to itself, in a unit of work of its own (as a provider's request would be).
 */
export const providersOf = perProcess((deps) => {
  const providers = createProviders(deps.config, (body) => {
    const inUnit = units.get(deps);
    if (!inUnit) return;
    void inUnit(async (services) => {
      const headers = { [SANDBOX_SIGNATURE_HEADER]: signature(body) };
      await services.payments.webhook('sandbox', { method: 'POST', rawBody: Buffer.from(body), headers, query: {} });
    }).catch((error: unknown) => deps.log.error({ err: error }, 'sandbox refund webhook failed'));
  });
  const signature = (body: string) => signSandboxBody(providers.sandboxSecret, body);
  return providers;
});

export const paymentsArea = defineArea({
  name: 'payments',
  uses: ['audit', 'auth', 'catalog', 'entitlements', 'guardian', 'notifications'],
  entities: [Payment, IdempotencyKey, WebhookEvent, LedgerTransaction, LedgerEntry, LedgerBalance, PurchaseRequest],
  resolvers: [PaymentsResolver, PaymentsUserEdges, PaymentViewFields],
  nodes: paymentsNodes,
  rules: paymentsRules,
  routes: paymentsRoutes,
  http: (deps, context) => paymentsHttp(deps, context, () => providersOf(deps).sandboxSecret),
  migrations: [
    { name: 'Migration20261124000000_commerce', class: Migration20261124000000_commerce },
    { name: 'Migration20261125000000_commerce_review', class: Migration20261125000000_commerce_review },
    {
      name: 'Migration20261126000000_entitlement_revoked_reason',
      class: Migration20261126000000_entitlement_revoked_reason,
    },
    { name: 'Migration20261127100000_ledger_pseudonyms', class: Migration20261127100000_ledger_pseudonyms },
  ],
  jobs: (deps, inUnit) => {
    units.set(deps, inUnit);
    definePaymentsJobs(deps, inUnit);
  },
  services: { payments: (uow, services) => new PaymentsService(uow, services, providersOf(uow.deps)) },
  personalData: {
    entities: [Payment, PurchaseRequest, IdempotencyKey],
    export: async (userId, _services, uow) => ({
      payments: await allRowsOf(uow, Payment, { $or: [{ payer: userId }, { beneficiary: userId }] }),
      purchaseRequests: await allRowsOf(uow, PurchaseRequest, { learner: userId }),
    }),
    // Payments and the ledger are records the law makes us keep: they stay, pointing at the
    // pseudonym the account becomes (the ledger's accounts are renamed to it). What only served the
    // person goes: requests to a guardian, stored checkout answers.
    erase: async (userId, pseudonym, _services, uow) => {
      await pseudonymiseLedger(uow, userId, pseudonym);
      await uow.em.nativeDelete(PurchaseRequest, { learner: userId });
      await uow.em.nativeDelete(IdempotencyKey, { userId });
    },
  },
});
