import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole } from '../permissions/rules';

const isAdmin = hasRole(Role.admin);

export const featuresRules = {
  Query: { features: allow, featureFlags: isAdmin },
  Mutation: { setFeatureFlag: isAdmin },
  FeatureFlag: allow,
  FlagRule: allow,
};
