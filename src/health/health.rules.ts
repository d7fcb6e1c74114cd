import { allow } from 'graphql-shield';

export const healthRules = {
  Query: { health: allow, emailHealth: allow },
  Health: allow,
  EmailHealth: allow,
};
