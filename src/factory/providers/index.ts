import { type Config, factoryProviders, type ModelStage, type ProviderKind } from '../../config';
import { ModerationClient } from '../safety';
import { ChatCompletionsModel } from './chat-completions';
import type { CourseModel } from './model';
import { OfflineCourseModel } from './offline';

export interface FactoryModels {
  byStage: Record<ModelStage, CourseModel>;
  moderation?: ModerationClient;
}

/** The model of each stage, as FACTORY_PROVIDERS chooses (the specification's table), made once. */
export function createFactoryModels(config: Config): FactoryModels {
  const chat = { timeoutMs: config.LLM_TIMEOUT_MS, malformedRetries: config.LLM_MALFORMED_RETRIES };
  const models: Record<ProviderKind, () => CourseModel> = {
    offline: () => new OfflineCourseModel(config.FACTORY_OFFLINE_DELAY_MS),
    open_weight: () =>
      new ChatCompletionsModel(
        {
          url: config.OPEN_WEIGHT_LLM_URL!,
          model: config.OPEN_WEIGHT_LLM_MODEL,
          apiKey: config.OPEN_WEIGHT_LLM_API_KEY,
        },
        chat,
      ),
    commercial: () =>
      new ChatCompletionsModel(
        { url: config.COMMERCIAL_LLM_URL!, model: config.COMMERCIAL_LLM_MODEL, apiKey: config.COMMERCIAL_LLM_API_KEY },
        chat,
      ),
  };
  const made = new Map<ProviderKind, CourseModel>();
  const model = (kind: ProviderKind) => made.get(kind) ?? made.set(kind, models[kind]()).get(kind)!;
  const chosen = factoryProviders(config);
  return {
    byStage: {
      research: model(chosen.research),
      outline: model(chosen.outline),
      content: model(chosen.content),
      quiz: model(chosen.quiz),
    },
    moderation: config.MODERATION_URL
      ? new ModerationClient(
          { url: config.MODERATION_URL, model: config.MODERATION_MODEL, apiKey: config.MODERATION_API_KEY },
          config.LLM_TIMEOUT_MS,
        )
      : undefined,
  };
}
