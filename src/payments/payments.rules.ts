import { allow, and, rule } from 'graphql-shield';
import { Role } from '../auth';
import { learnerActive } from '../guardian';
import type { Context } from '../kernel/context';
import { aboutCallerAnd, hasRole, isAuthenticated, isSelf } from '../permissions/rules';
import { purchaseRequestNotFound } from './payments.errors';

const admin = hasRole(Role.admin);
const creator = hasRole(Role.creator);
const guardian = hasRole(Role.guardian);

/** A purchase request named by `id` is decided by its learner's active guardians; to anyone else it is not found, whatever else was sent. */
const decidesRequest = and(
  guardian,
  aboutCallerAnd(
    ['id'],
    rule('decidesPurchaseRequest', { cache: 'no_cache' })(
      async (_parent, args: { id: string }, ctx: Context) =>
        (await ctx.services.payments.guardsRequest(ctx.auth.userId!, args.id)) || purchaseRequestNotFound(),
    ),
  ),
);

export const paymentsRules = {
  Query: {
    paymentProviders: allow,
    mySales: creator,
    myPayments: isAuthenticated,
    payment: isAuthenticated,
    purchaseRequests: isAuthenticated,
    ledgerBalances: admin,
  },
  Mutation: {
    checkout: learnerActive,
    approvePurchaseRequest: decidesRequest,
    declinePurchaseRequest: decidesRequest,
  },
  Checkout: allow,
  CheckoutResult: allow,
  PurchaseRequestRef: allow,
  Payment: allow,
  PaymentConnection: allow,
  PaymentEdge: allow,
  PurchaseRequest: allow,
  PurchaseRequestConnection: allow,
  PurchaseRequestEdge: allow,
  LedgerBalance: allow,
  LedgerBalances: allow,
  Sale: allow,
  SalesTotal: allow,
  MySales: allow,
  User: { payments: isSelf },
};
