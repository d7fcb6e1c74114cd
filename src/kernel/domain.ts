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
}

export enum Tier {
  free = 'free',
  starter = 'starter',
  pro = 'pro',
}

export enum Locale {
  vi = 'vi',
  en = 'en',
}
