import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditService } from '../audit';
import { ageOn } from '../auth';
import type { User } from '../auth';
import { perProcess } from '../kernel/deps';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { evaluateFlag, type FlagRule, type FlagSubject } from './evaluate';
import { FeatureFlag } from './feature-flag.entity';
import { contextOf, createFlagRuntime, FEATURE_FLAGS_CHANGED, FLAGS_TOPIC_KEY } from './provider';
import { invalidFlagKey, minAgeAboveMaxAge } from './features.errors';

export const flagRuntimeOf = perProcess(createFlagRuntime);

export const FLAG_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

export interface FlagChange {
  description?: string | null;
  enabled: boolean;
  rules?: FlagRule[] | null;
}

/** Who the caller is, as flags see them (nobody: the defaults). */
export function subjectOf(viewer: User | null): FlagSubject {
  if (!viewer) return {};
  return {
    userId: viewer.id,
    roles: viewer.roles,
    tier: viewer.tier,
    country: viewer.country,
    age: viewer.birthDate ? ageOn(viewer.birthDate) : null,
  };
}

export class FeaturesService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly audit: AuditService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get runtime() {
    return flagRuntimeOf(this.uow.deps);
  }

  /**
   * Every flag's value for the caller, from the provider's flags as it decides one. OpenFeature
   * has no bulk evaluation, and a call per flag (its context merging, hooks and a promise each) cost
   * more than the rest of the request; no hook is registered that would miss these.
   */
  async evaluateAll(viewer: User | null): Promise<Record<string, boolean>> {
    const flags = await this.runtime.provider.flags();
    const subject = subjectOf(viewer);
    return Object.fromEntries([...flags.values()].map((flag) => [flag.key, evaluateFlag(flag, subject)]));
  }

  /** One flag for the caller; `defaultValue` when no such flag exists. */
  isEnabled(key: string, viewer: User | null, defaultValue = false): Promise<boolean> {
    return this.runtime.client.getBooleanValue(key, defaultValue, contextOf(subjectOf(viewer)));
  }

  list(): Promise<FeatureFlag[]> {
    return this.em.find(FeatureFlag, {}, { orderBy: { key: 'asc' }, populate: ['updatedBy'] });
  }

  /** Creates or replaces a flag; every instance drops its cache once this commits. Audited. */
  async put(actor: User | null, key: string, change: FlagChange): Promise<FeatureFlag> {
    if (!FLAG_KEY.test(key)) throw invalidFlagKey();
    const rules = (change.rules ?? []).map(normaliseRule);
    rules.forEach((rule, i) => {
      if (rule.minAge != null && rule.maxAge != null && rule.minAge > rule.maxAge) throw minAgeAboveMaxAge(i);
    });
    const flag = await this.uow.transaction(async (em) => {
      let row = await em.findOne(FeatureFlag, { key });
      const before = row ? { enabled: row.enabled, rules: row.rules, description: row.description } : null;
      if (!row) row = em.create(FeatureFlag, { key });
      row.description = change.description?.trim() ?? row.description;
      row.enabled = change.enabled;
      row.rules = rules;
      em.assign(row, { updatedBy: actor?.id ?? null });
      await em.flush();
      await this.audit.record({
        actor,
        action: 'features.flag_changed',
        target: { type: 'feature_flag', id: key },
        data: { before, after: { enabled: row.enabled, rules, description: row.description } },
      });
      return row;
    });
    this.uow.afterCommit(() => this.runtime.provider.invalidate());
    this.uow.publish(FEATURE_FLAGS_CHANGED, FLAGS_TOPIC_KEY, { key });
    return flag;
  }
}

function normaliseRule(rule: FlagRule): FlagRule {
  const out: FlagRule = {};
  if (rule.roles?.length) out.roles = [...new Set(rule.roles)];
  if (rule.tiers?.length) out.tiers = [...new Set(rule.tiers)];
  if (rule.countries?.length) out.countries = [...new Set(rule.countries.map((c) => c.toUpperCase()))];
  if (rule.minAge != null) out.minAge = rule.minAge;
  if (rule.maxAge != null) out.maxAge = rule.maxAge;
  if (rule.percentage != null) out.percentage = rule.percentage;
  return out;
}
