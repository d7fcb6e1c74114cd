import { allRowsOf } from '../kernel/personal-data';
import { defineArea } from '../kernel/area';
import { Migration20261129000300_country_policy_events } from './migrations/Migration20261129000300_country_policy_events';
import { CountryPolicyChange, CountryPolicyOverride } from './country-policy.entity';
import { CountryPolicyResolver } from './country-policy.resolver';
import { countryPolicyRoutes } from './country-policy.routes';
import { countryPolicyRules } from './country-policy.rules';
import { CountryPolicyService } from './country-policy.service';
import { defaultPolicy, residencyRegions } from './country-policy.defaults';
import { residencyRegion } from '../db/regions';
import { Migration20261122020000_guardians_consent_country_policy } from './migrations/Migration20261122020000_guardians_consent_country_policy';

export type { PolicyValues } from './country-policy.defaults';
export type { CountryPolicyService } from './country-policy.service';

declare module '../kernel/services' {
  interface Services {
    countryPolicy: CountryPolicyService;
  }
}

export const countryPolicyArea = defineArea({
  name: 'country-policy',
  uses: ['audit', 'auth'],
  sharedTables: ['country_policies'],
  residency: {
    regions: residencyRegions(),
    regionOf: (country) => residencyRegion(defaultPolicy(country.toUpperCase()).dataResidency),
  },
  migrations: [
    {
      name: 'Migration20261122020000_guardians_consent_country_policy',
      class: Migration20261122020000_guardians_consent_country_policy,
    },
    { name: 'Migration20261129000300_country_policy_events', class: Migration20261129000300_country_policy_events },
  ],
  entities: [CountryPolicyOverride, CountryPolicyChange],
  resolvers: [CountryPolicyResolver],
  rules: countryPolicyRules,
  routes: countryPolicyRoutes,
  services: { countryPolicy: (uow, services) => new CountryPolicyService(uow, services.audit) },
  personalData: {
    entities: [CountryPolicyChange],
    export: async (userId, _services, uow) => ({
      policyChanges: await allRowsOf(uow, CountryPolicyChange, { author: userId }),
    }),
    // An admin's policy changes are an audit trail: they stay, their author becoming the pseudonym.
    erase: async () => {},
  },
});
