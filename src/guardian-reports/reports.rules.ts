import { allow } from 'graphql-shield';
import { Role } from '../kernel/domain';
import { hasRole } from '../permissions/rules';

const isGuardian = hasRole(Role.guardian);

export const reportsRules = {
  Query: { guardianReports: isGuardian },
  GuardianReport: allow,
  GuardianReportConnection: allow,
  GuardianReportEdge: allow,
};
