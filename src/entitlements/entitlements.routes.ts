import { restRoutes } from '../kernel/rest-route';

/** The REST paths of entitlements; each runs the operation of that name in `entitlements.graphql`. */
export const entitlementsRoutes = restRoutes(__dirname, 'entitlements.graphql', [
  {
    method: 'get',
    path: '/entitlements/me',
    status: 200,
    operation: 'MyEntitlements',
    summary: "The caller's tier and entitlements",
  },
  {
    method: 'post',
    path: '/entitlements/grants',
    status: 201,
    operation: 'GrantEntitlement',
    summary: 'Grant a tier or course (admins)',
  },
  {
    method: 'post',
    path: '/entitlements/:id/revoke',
    status: 200,
    operation: 'RevokeEntitlement',
    summary: 'Revoke an entitlement (admins)',
  },
]);
