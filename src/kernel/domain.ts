/** The platform's shared vocabulary: every area speaks of roles, account states, tiers and locales. */

export enum Role {
  learner = 'learner',
  guardian = 'guardian',
  admin = 'admin',
  content_admin = 'content_admin',
  creator = 'creator',
}

/** The roles a person may choose at sign-up; the others are granted by an admin. */
export const signupRoles = [Role.learner, Role.guardian, Role.creator] as const;

export enum AccountStatus {
  active = 'active',
  /** A learner under 13 whose guardian has not yet verified and linked. */
  pending_guardian = 'pending_guardian',
  /** An admin suspended the account: log-in and every token are refused until reactivation. */
  suspended = 'suspended',
  /** Erasure is scheduled: until it runs, the account may only read itself and cancel (docs/domain.md#privacy-operations). */
  deletion_pending = 'deletion_pending',
  /** What is left of an erased account: a pseudonym that the records the law keeps point to. */
  erased = 'erased',
}

export enum Tier {
  free = 'free',
  starter = 'starter',
  pro = 'pro',
}

/** Tiers from the least to the most included (SQL that compares tiers is given this list). */
export const TIER_ORDER: readonly Tier[] = [Tier.free, Tier.starter, Tier.pro];

/** Whether `tier` includes what `least` does. */
export const includesTier = (tier: Tier, least: Tier): boolean => TIER_ORDER.indexOf(tier) >= TIER_ORDER.indexOf(least);

export enum Locale {
  vi = 'vi',
  en = 'en',
}
