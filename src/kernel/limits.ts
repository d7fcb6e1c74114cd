/** The platform's limits, in one place: services, inputs and docs read them here. */
export const AGE = {
  /** Under this age a learner needs an active link to a verified guardian to use the platform. */
  withoutGuardian: 13,
  /** From this age a learner may end a guardian's link themselves. */
  toRevokeGuardian: 16,
  adult: 18,
  /** Oldest birth date we accept, in years. */
  max: 120,
  /** The ages courses are written for. */
  courseMin: 5,
  courseMax: 18,
} as const;

export const LIMITS = {
  linksPerGuardian: 5,
  factoryTopic: { min: 3, max: 200 },
  factoryLessons: { min: 1, max: 30 },
  pageSize: { default: 20, max: 100 },
} as const;
