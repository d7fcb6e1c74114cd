import type { Area } from '../kernel/area';

export const SWEEP_JOB = 'commerce:sweep';

/** One recurring job: subscriptions past endsAt end (tiers drop) and pending payments past expiresAt expire. */
export const definePaymentsJobs = (
  deps: Parameters<NonNullable<Area['jobs']>>[0],
  inUnit: Parameters<NonNullable<Area['jobs']>>[1],
) => {
  deps.jobs.define(SWEEP_JOB, () => inUnit(async (services) => void (await services.payments.sweep())), {
    concurrency: 1,
  });
  // Agenda's `every` is a single job by name: however many instances start, one schedule exists.
  void deps.jobs.agenda
    .every(deps.config.COMMERCE_SWEEP_EVERY, SWEEP_JOB)
    .catch((error: unknown) => deps.log.error({ err: error }, 'commerce sweep not scheduled'));
};
