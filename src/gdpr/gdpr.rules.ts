import { allow } from 'graphql-shield';
import { Role } from '../kernel/domain';
import { hasRole, isAuthenticated } from '../permissions/rules';

export const gdprRules = {
  Query: { gdprRequests: isAuthenticated, gdprRequest: isAuthenticated, adminGdprRequests: hasRole(Role.admin) },
  Mutation: {
    requestDataExport: isAuthenticated,
    requestAccountDeletion: isAuthenticated,
    cancelGdprRequest: isAuthenticated,
  },
  GdprRequest: allow,
  GdprRequestConnection: allow,
  GdprRequestEdge: allow,
};
