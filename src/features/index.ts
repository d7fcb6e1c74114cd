import { defineArea } from '../kernel/area';
import { allRowsOf } from '../kernel/personal-data';
import { FeatureFlag } from './feature-flag.entity';
import { FeaturesResolver } from './features.resolver';
import { featuresRoutes } from './features.routes';
import { featuresRules } from './features.rules';
import { FeaturesService } from './features.service';
import { Migration20261123120000_feature_flags } from './migrations/Migration20261123120000_feature_flags';

export { featureEnabled } from './feature-rule';

declare module '../kernel/services' {
  interface Services {
    features: FeaturesService;
  }
}

export const featuresArea = defineArea({
  name: 'features',
  uses: ['audit', 'auth'],
  sharedTables: ['feature_flags'],
  entities: [FeatureFlag],
  resolvers: [FeaturesResolver],
  rules: featuresRules,
  routes: featuresRoutes,
  migrations: [{ name: 'Migration20261123120000_feature_flags', class: Migration20261123120000_feature_flags }],
  services: { features: (uow, services) => new FeaturesService(uow, services.audit) },
  personalData: {
    entities: [FeatureFlag],
    export: async (userId, _services, uow) => ({
      flagsLastChanged: await allRowsOf(uow, FeatureFlag, { updatedBy: userId }),
    }),
    // A flag an admin changed is the platform's setting: it stays, its author the pseudonym.
    erase: async () => {},
  },
});
