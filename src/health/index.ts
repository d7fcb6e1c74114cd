import { defineArea } from '../kernel/area';
import { HealthResolver } from './health.resolver';
import { healthRoutes } from './health.routes';
import { healthRules } from './health.rules';
import { HealthService } from './health.service';

declare module '../kernel/services' {
  interface Services {
    health: HealthService;
  }
}

export const healthArea = defineArea({
  name: 'health',
  resolvers: [HealthResolver],
  rules: healthRules,
  routes: healthRoutes,
  services: { health: (uow) => new HealthService(uow, uow.deps) },
});
