import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `features.graphql`. */
export const featuresRoutes = restRoutes(__dirname, 'features.graphql', [
  {
    method: 'get',
    path: '/features',
    status: 200,
    operation: 'Features',
    summary: "Each flag's value for the caller (anonymous: the defaults)",
    body: { wrap: 'features' },
  },
  {
    method: 'get',
    path: '/admin/features',
    status: 200,
    operation: 'FeatureFlags',
    summary: 'Every flag with its rules (admins)',
    body: { wrap: 'items' },
  },
  {
    method: 'put',
    path: '/admin/features/:key',
    status: 200,
    operation: 'SetFeatureFlag',
    summary: 'Create or replace a flag: enabled, rules by role, tier, country, age and percentage (admins); audited',
  },
]);
