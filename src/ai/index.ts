import { allRowsOf, withBackoff } from '../kernel/personal-data';
import { AppError } from '../kernel/errors';
import { defineArea } from '../kernel/area';
import { type Deps, perProcess, perRegion } from '../kernel/deps';
import { AiUsage } from './ai-usage.entity';
import { AiBackend } from './ai.backend';
import { AiResolver, AiUserEdges } from './ai.resolver';
import { aiRoutes } from './ai.routes';
import { aiRules } from './ai.rules';
import { AiService } from './ai.service';
import { aiChatRoute } from './ai.stream';
import type { ChatTerms } from './ai.service';
import { AccessCache } from '../kernel/access-cache';
import { nextReset } from './ai.quota';
import { UsageRecorder } from './ai.usage';
import { QuotaReserver } from './ai.quota';
import { Migration20261124100000_ai_access_events } from './migrations/Migration20261124100000_ai_access_events';
import { Migration20261130000100_ai_learner_activity_view } from './migrations/Migration20261130000100_ai_learner_activity_view';
import { Migration20261122030000_ai_usage } from './migrations/Migration20261122030000_ai_usage';

export { mayConverse } from './ai.rules';
export type { AiService } from './ai.service';

declare module '../kernel/services' {
  interface Services {
    ai: AiService;
  }
}

/** Ages and quotas count UTC days: nothing outlives the day it was decided on. */
const decisionOptions = (deps: Deps) => ({
  ttlMs: deps.config.AI_DECISION_TTL_MS,
  maxEntries: 100_000,
  until: () => nextReset().getTime(),
});

/** One backend client per process: its circuit breaker sees every request, its keep-alive pool serves them all. */
const aiBackendOf = perProcess((deps) => new AiBackend(deps.config, deps.log));

/** What the AI area keeps per region: the per-person decisions, and the token usage waiting to be written to the region's database. */
const runtimeOf = perRegion((deps) => ({
  kept: {
    verdicts: new AccessCache<true | AppError>(deps.pubSub, decisionOptions(deps)),
    terms: new AccessCache<ChatTerms>(deps.pubSub, decisionOptions(deps)),
  },
  usage: new UsageRecorder(deps.sql, deps.log, deps.config.AI_USAGE_FLUSH_MS),
  quota: new QuotaReserver(deps.sql),
}));

export const aiArea = defineArea({
  name: 'ai',
  uses: ['auth', 'consent', 'guardian'],
  entities: [AiUsage],
  resolvers: [AiResolver, AiUserEdges],
  rules: aiRules,
  routes: aiRoutes,
  migrations: [
    { name: 'Migration20261122030000_ai_usage', class: Migration20261122030000_ai_usage },
    { name: 'Migration20261124100000_ai_access_events', class: Migration20261124100000_ai_access_events },
    {
      name: 'Migration20261130000100_ai_learner_activity_view',
      class: Migration20261130000100_ai_learner_activity_view,
    },
  ],
  jsonRoutes: (deps) => [aiChatRoute(runtimeOf(deps).kept)],
  services: {
    ai: (uow, services) =>
      new AiService(
        uow,
        uow.deps,
        aiBackendOf(uow.deps),
        services,
        runtimeOf(uow.deps).usage,
        runtimeOf(uow.deps).quota,
      ),
  },
  close: async (deps) => {
    for (const region of deps.regions) {
      const runtime = runtimeOf(region);
      runtime.kept.verdicts.close();
      runtime.kept.terms.close();
      await runtime.usage.close();
    }
    await aiBackendOf(deps).close();
  },
  personalData: {
    entities: [AiUsage],
    export: async (userId, _services, uow) => ({ usage: await allRowsOf(uow, AiUsage, { user: userId }) }),
    // The AI backend forgets the person too (conversations, memory): asked until it answers 2xx or
    // 404, with backoff; if it still fails, this area's step fails and the next sweep asks again.
    erase: async (userId, _pseudonym, _services, uow) => {
      const { config } = uow.deps;
      if (config.AI_BACKEND_URL) {
        const backend = aiBackendOf(uow.deps);
        const identity = {
          userId,
          roles: [],
          tier: 'free',
          locale: 'en',
          memory: false,
          requestId: `gdpr-erasure-${userId}`,
        };
        await withBackoff(config.GDPR_AI_RETRIES, config.GDPR_AI_RETRY_DELAY_MS, async () => {
          try {
            const response = await backend.request({
              method: 'DELETE',
              path: `/users/${encodeURIComponent(userId)}`,
              identity,
            });
            await response.body.dump();
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
