import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { learnerActive } from '../guardian';
import { hasRole, isAuthenticated, isSelf } from '../permissions/rules';

const admin = hasRole(Role.admin);
const creator = hasRole(Role.creator);
const guardian = hasRole(Role.guardian);

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
    approvePurchaseRequest: guardian,
    declinePurchaseRequest: guardian,
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
