import { createHash } from 'node:crypto';

/** Who a rule is for: every criterion it names must hold (an empty rule holds for everybody). */
export interface FlagRule {
  roles?: string[] | null;
  tiers?: string[] | null;
  countries?: string[] | null;
  minAge?: number | null;
  maxAge?: number | null;
  /** 0..100: the share of users (stable per user and flag) the rule holds for. */
  percentage?: number | null;
}

export interface FlagDefinition {
  key: string;
  enabled: boolean;
  rules: FlagRule[];
}

/** What a flag is evaluated against; all unset for an anonymous caller. */
export interface FlagSubject {
  userId?: string | null;
  roles?: string[];
  tier?: string | null;
  country?: string | null;
  age?: number | null;
}

/** Which of 10,000 buckets a user falls in for a flag: the same bucket on every instance and every day. */
export function bucketOf(key: string, userId: string): number {
  return createHash('sha256').update(`${key}:${userId}`).digest().readUInt32BE(0) % 10_000;
}

function nonEmpty<T>(list: T[] | null | undefined): list is T[] {
  return Array.isArray(list) && list.length > 0;
}

export function ruleHolds(key: string, rule: FlagRule, subject: FlagSubject): boolean {
  if (nonEmpty(rule.roles) && !rule.roles.some((role) => subject.roles?.includes(role))) return false;
  if (nonEmpty(rule.tiers) && !(subject.tier && rule.tiers.includes(subject.tier))) return false;
  if (nonEmpty(rule.countries) && !(subject.country && rule.countries.includes(subject.country.toUpperCase())))
    return false;
  if (rule.minAge != null && !(subject.age != null && subject.age >= rule.minAge)) return false;
  if (rule.maxAge != null && !(subject.age != null && subject.age <= rule.maxAge)) return false;
  if (rule.percentage != null && rule.percentage < 100) {
    if (!subject.userId || rule.percentage <= 0) return false;
    if (bucketOf(key, subject.userId) >= Math.round(rule.percentage * 100)) return false;
  }
  return true;
}

/** Off when disabled; on for everybody when enabled without rules; else on when any rule holds. */
export function evaluateFlag(flag: FlagDefinition, subject: FlagSubject): boolean {
  if (!flag.enabled) return false;
  if (flag.rules.length === 0) return true;
  return flag.rules.some((rule) => ruleHolds(flag.key, rule, subject));
}
