import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole, isAuthenticated } from '../permissions/rules';

const admin = hasRole(Role.admin);

export const refundsRules = {
  Query: {
    myRefunds: isAuthenticated,
    refunds: admin,
  },
  Mutation: {
    // The payer, or an admin: the service finds the payment only for them (404 to anyone else).
    requestRefund: isAuthenticated,
    approveRefund: admin,
    rejectRefund: admin,
  },
  Refund: allow,
  RefundConnection: allow,
  RefundEdge: allow,
};
