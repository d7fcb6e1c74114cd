import { randomUUID } from 'node:crypto';
import {
  type EvaluationContext,
  type JsonValue,
  OpenFeature,
  type Provider,
  type ResolutionDetails,
  StandardResolutionReasons,
  ErrorCode,
  type Client,
} from '@openfeature/server-sdk';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../kernel/deps';
import { evaluateFlag, type FlagDefinition, type FlagSubject } from './evaluate';
import { FeatureFlag } from './feature-flag.entity';

export const FEATURE_FLAGS_CHANGED = 'FEATURE_FLAGS_CHANGED';
export const FLAGS_TOPIC_KEY = 'all';

/**
 * Our OpenFeature provider: every flag of the database, held in memory until a change is
 * announced (on any instance, through the event bus), then read again on next use.
 */
export class DatabaseFlagProvider implements Provider {
  readonly metadata = { name: 'learning-platform-database' } as const;
  readonly runsOn = 'server' as const;
  private cache?: Promise<Map<string, FlagDefinition>>;
  private loadedAt = 0;

  /** `maxAgeMs` bounds how stale a cache gets should a change announcement be lost (the event connection down). */
  constructor(
    private readonly load: () => Promise<FlagDefinition[]>,
    private readonly maxAgeMs = 60_000,
  ) {}

  flags(): Promise<Map<string, FlagDefinition>> {
    if (!this.cache || Date.now() - this.loadedAt > this.maxAgeMs) {
      this.loadedAt = Date.now();
      const loading = this.load().then((rows) => new Map(rows.map((flag) => [flag.key, flag])));
      this.cache = loading;
      loading.catch(() => {
        if (this.cache === loading) this.cache = undefined;
      });
    }
    return this.cache;
  }

  invalidate(): void {
    this.cache = undefined;
  }

  async resolveBooleanEvaluation(
    flagKey: string,
    defaultValue: boolean,
    context: EvaluationContext,
  ): Promise<ResolutionDetails<boolean>> {
    const flag = (await this.flags()).get(flagKey);
    if (!flag)
      return { value: defaultValue, reason: StandardResolutionReasons.DEFAULT, errorCode: ErrorCode.FLAG_NOT_FOUND };
    const value = evaluateFlag(flag, subjectOf(context));
    return {
      value,
      reason: !flag.enabled
        ? StandardResolutionReasons.DISABLED
        : flag.rules.length
          ? StandardResolutionReasons.TARGETING_MATCH
          : StandardResolutionReasons.STATIC,
    };
  }

  async resolveStringEvaluation(_key: string, defaultValue: string): Promise<ResolutionDetails<string>> {
    return { value: defaultValue, reason: StandardResolutionReasons.DEFAULT, errorCode: ErrorCode.TYPE_MISMATCH };
  }

  async resolveNumberEvaluation(_key: string, defaultValue: number): Promise<ResolutionDetails<number>> {
    return { value: defaultValue, reason: StandardResolutionReasons.DEFAULT, errorCode: ErrorCode.TYPE_MISMATCH };
  }

  async resolveObjectEvaluation<T extends JsonValue>(_key: string, defaultValue: T): Promise<ResolutionDetails<T>> {
    return { value: defaultValue, reason: StandardResolutionReasons.DEFAULT, errorCode: ErrorCode.TYPE_MISMATCH };
  }
}

export function contextOf(subject: FlagSubject): EvaluationContext {
  return {
    ...(subject.userId ? { targetingKey: subject.userId } : {}),
    roles: subject.roles ?? [],
    tier: subject.tier ?? null,
    country: subject.country ?? null,
    age: subject.age ?? null,
  };
}

function subjectOf(context: EvaluationContext): FlagSubject {
  return {
    userId: context.targetingKey ?? null,
    roles: Array.isArray(context.roles) ? (context.roles as string[]) : [],
    tier: typeof context.tier === 'string' ? context.tier : null,
    country: typeof context.country === 'string' ? context.country : null,
    age: typeof context.age === 'number' ? context.age : null,
  };
}

export interface FlagRuntime {
  provider: DatabaseFlagProvider;
  client: Client;
}

/**
 * One provider per instance (a domain of OpenFeature's of its own, as tests run two instances in
 * one process), listening for changes announced by any instance.
 */
export function createFlagRuntime(deps: Deps): FlagRuntime {
  const provider = new DatabaseFlagProvider(async () => {
    const em = deps.orm.em.fork() as EntityManager;
    const rows = await em.find(FeatureFlag, {}, { orderBy: { key: 'asc' } });
    return rows.map((row) => ({ key: row.key, enabled: row.enabled, rules: row.rules }));
  });
  const domain = `learning-platform-${randomUUID()}`;
  OpenFeature.setProvider(domain, provider);
  const client = OpenFeature.getClient(domain);
  void (async () => {
    try {
      for await (const _event of deps.pubSub.subscribe(FEATURE_FLAGS_CHANGED, FLAGS_TOPIC_KEY)) provider.invalidate();
    } catch (error) {
      deps.log.warn({ err: error }, 'feature flag change listener ended');
    }
  })();
  return { provider, client };
}
