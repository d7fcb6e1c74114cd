import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole, isAuthenticated, isSelf } from '../permissions/rules';

const admin = hasRole(Role.admin);

export const entitlementsRules = {
  Query: {
    myEntitlements: isAuthenticated,
  },
  Mutation: {
    grantEntitlement: admin,
    revokeEntitlement: admin,
  },
  Entitlement: allow,
  EntitlementConnection: allow,
  EntitlementEdge: allow,
  MyEntitlements: allow,
  User: { entitlements: isSelf },
};
