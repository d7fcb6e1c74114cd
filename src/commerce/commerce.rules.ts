import { allow, chain } from 'graphql-shield';
import { Role } from '../auth';
import { learnerActive } from '../guardian';
import { hasRole, isAuthenticated, isContentEditor, isSelf } from '../permissions/rules';
import { listsOwnCourses } from './listing-ownership';

const admin = hasRole(Role.admin);
const creator = hasRole(Role.creator);
const guardian = hasRole(Role.guardian);

export const commerceRules = {
  Query: {
    products: allow,
    product: allow,
    marketplace: allow,
    marketplaceProduct: allow,
    paymentProviders: allow,
    mySales: creator,
    myPayments: isAuthenticated,
    payment: isAuthenticated,
    purchaseRequests: isAuthenticated,
    myRefunds: isAuthenticated,
    refunds: admin,
    ledgerBalances: admin,
  },
  Mutation: {
    createProduct: admin,
    updateProduct: admin,
    publishProduct: admin,
    archiveProduct: admin,
    // A creator lists only courses they wrote (content admins review the listing after).
    submitListing: chain(creator, listsOwnCourses),
    approveListing: isContentEditor,
    rejectListing: isContentEditor,
    checkout: learnerActive,
    approvePurchaseRequest: guardian,
    declinePurchaseRequest: guardian,
    requestRefund: isAuthenticated,
    approveRefund: admin,
    rejectRefund: admin,
  },
  Product: allow,
  ProductConnection: allow,
  ProductEdge: allow,
  Price: allow,
  Seller: allow,
  Checkout: allow,
  CheckoutResult: allow,
  PurchaseRequestRef: allow,
  Payment: allow,
  PaymentConnection: allow,
  PaymentEdge: allow,
  PurchaseRequest: allow,
  PurchaseRequestConnection: allow,
  PurchaseRequestEdge: allow,
  Refund: allow,
  RefundConnection: allow,
  RefundEdge: allow,
  LedgerBalance: allow,
  LedgerBalances: allow,
  Sale: allow,
  SalesTotal: allow,
  MySales: allow,
  User: { payments: isSelf },
};
