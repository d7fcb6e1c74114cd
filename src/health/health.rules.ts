import { allow } from 'graphql-shield';

export const healthRules = {
  Query: { health: allow, emailHealth: allow, liveness: allow, readiness: allow },
  Liveness: allow,
  Readiness: allow,
  Health: allow,
  EmailHealth: allow,
};
