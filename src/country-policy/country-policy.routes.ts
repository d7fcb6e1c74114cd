import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `country-policy.graphql`. */
export const countryPolicyRoutes = restRoutes(__dirname, 'country-policy.graphql', [
  {
    method: 'get',
    path: '/country-policy',
    status: 200,
    operation: 'CountryPolicy',
    summary: "A country's consent rules",
  },
  {
    method: 'put',
    path: '/country-policy/:country',
    status: 200,
    operation: 'UpdateCountryPolicy',
    summary: "Change a country's rules (admins); every change is kept",
  },
]);
