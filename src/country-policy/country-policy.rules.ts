import { allow } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole } from '../permissions/rules';

const isAdmin = hasRole(Role.admin);

export const countryPolicyRules = {
  Query: { countryPolicy: allow },
  Mutation: { updateCountryPolicy: isAdmin },
  CountryPolicy: { '*': allow, history: isAdmin },
  CountryPolicyChangeView: allow,
};
