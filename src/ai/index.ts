import { defineArea } from '../kernel/area';
import { perProcess } from '../kernel/deps';
import { AiUsage } from './ai-usage.entity';
import { AiBackend } from './ai.backend';
import { AiResolver } from './ai.resolver';
import { aiRoutes } from './ai.routes';
import { aiRules } from './ai.rules';
import { AiService } from './ai.service';
import { aiStreamRouter } from './ai.stream';

export { mayConverse } from './ai.rules';
export type { AiService } from './ai.service';

declare module '../kernel/services' {
  interface Services {
    ai: AiService;
  }
}

/** One backend client per process, so its circuit breaker sees every request. */
const aiBackendOf = perProcess((deps) => new AiBackend(deps.config, deps.log));

export const aiArea = defineArea({
  name: 'ai',
  entities: [AiUsage],
  resolvers: [AiResolver],
  rules: aiRules,
  routes: aiRoutes,
  http: (deps, context) => aiStreamRouter(context, deps.config.BODY_LIMIT),
  services: { ai: (uow, services) => new AiService(uow, uow.deps, aiBackendOf(uow.deps), services.consent, services.guardian) },
  personalData: { entities: [AiUsage] },
});
