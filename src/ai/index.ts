import { allRowsOf, withBackoff } from '../kernel/personal-data';
import { AppError } from '../kernel/errors';
import { defineArea } from '../kernel/area';
import { perProcess } from '../kernel/deps';
import { AiUsage } from './ai-usage.entity';
import { AiBackend } from './ai.backend';
import { AiResolver, AiUserEdges } from './ai.resolver';
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
  resolvers: [AiResolver, AiUserEdges],
  rules: aiRules,
  routes: aiRoutes,
  http: (deps, context) => aiStreamRouter(context, deps.config.BODY_LIMIT),
  services: { ai: (uow, services) => new AiService(uow, uow.deps, aiBackendOf(uow.deps), services.consent, services.guardian) },
  personalData: {
    entities: [AiUsage],
    export: async (userId, _services, uow) => ({ usage: await allRowsOf(uow, AiUsage, { user: userId }) }),
    // The AI backend forgets the person too (conversations, memory): asked until it answers 2xx or
    // 404, with backoff; if it still fails, this area's step fails and the next sweep asks again.
    erase: async (userId, _pseudonym, _services, uow) => {
      const { config } = uow.deps;
      if (config.AI_BACKEND_URL) {
        const backend = aiBackendOf(uow.deps);
        const identity = { userId, roles: [], tier: 'free', locale: 'en', memory: false, requestId: `gdpr-erasure-${userId}` };
        await withBackoff(config.GDPR_AI_RETRIES, config.GDPR_AI_RETRY_DELAY_MS, async () => {
          try {
            const response = await backend.request({ method: 'DELETE', path: `/users/${encodeURIComponent(userId)}`, identity });
            await response.body?.cancel();
          } catch (error) {
            if (error instanceof AppError && error.code === 'not_found') return;
            throw error;
          }
        });
      }
      await uow.em.nativeDelete(AiUsage, { user: userId });
    },
  },
});
