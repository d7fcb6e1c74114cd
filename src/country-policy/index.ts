import { defineArea } from '../kernel/area';
import { CountryPolicyChange, CountryPolicyOverride } from './country-policy.entity';
import { CountryPolicyResolver } from './country-policy.resolver';
import { countryPolicyRoutes } from './country-policy.routes';
import { countryPolicyRules } from './country-policy.rules';
import { CountryPolicyService } from './country-policy.service';

export type { PolicyValues } from './country-policy.defaults';
export type { CountryPolicyService } from './country-policy.service';

declare module '../kernel/services' {
  interface Services {
    countryPolicy: CountryPolicyService;
  }
}

export const countryPolicyArea = defineArea({
  name: 'country-policy',
  entities: [CountryPolicyOverride, CountryPolicyChange],
  resolvers: [CountryPolicyResolver],
  rules: countryPolicyRules,
  routes: countryPolicyRoutes,
  services: { countryPolicy: (uow) => new CountryPolicyService(uow) },
  personalData: { entities: [CountryPolicyChange] },
});
