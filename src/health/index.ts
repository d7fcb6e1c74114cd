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

declare module '../kernel/deps' {
  interface Deps {
    /** The process's outbox relay, set by the composition root once started: readiness asks whether it runs. */
    relay?: { readonly running: boolean };
    /** Set when the instance begins to stop: readiness says so, so a balancer that asks stops sending it requests. */
    leaving?: boolean;
  }
}

export const healthArea = defineArea({
  name: 'health',
  uses: [],
  resolvers: [HealthResolver],
  rules: healthRules,
  routes: healthRoutes,
  services: { health: (uow) => new HealthService(uow, uow.deps) },
});
