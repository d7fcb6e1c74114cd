import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole } from '../permissions/rules';

const isAdmin = hasRole(Role.admin);

export const adminRules = {
  Query: { users: isAdmin },
  Mutation: { grantRole: isAdmin, removeRole: isAdmin },
  User: { roleChanges: isAdmin },
  UserConnection: allow,
  UserEdge: allow,
  PageInfo: allow,
  RoleChangeView: allow,
};
