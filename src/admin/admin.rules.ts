import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole } from '../permissions/rules';

const isAdmin = hasRole(Role.admin);

export const adminRules = {
  Query: { users: isAdmin, auditEntries: isAdmin, platformStats: isAdmin },
  Mutation: { grantRole: isAdmin, removeRole: isAdmin, suspendUser: isAdmin, reactivateUser: isAdmin },
  User: { roleChanges: isAdmin },
  UserConnection: allow,
  UserEdge: allow,
  PageInfo: allow,
  RoleChangeView: allow,
  AuditEntryConnection: allow,
  AuditEntryEdge: allow,
  AuditEntryView: allow,
  PlatformStatsView: allow,
  RoleCount: allow,
  StatusCount: allow,
  CurrencyAmount: allow,
};
