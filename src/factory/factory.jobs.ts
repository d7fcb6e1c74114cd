import { exponential } from 'agenda';
import type { Area } from '../kernel/area';
import { STAGE_JOB, type StageJob } from './factory.pipeline';

/**
 * Each stage of each generation is one job. A stage that throws is run again by Agenda after an
 * exponential backoff; the pipeline itself decides when the attempts are spent. A job whose
 * process died keeps its lock until the lock lifetime passes, then any instance takes it over.
 */
export const defineFactoryJobs: NonNullable<Area['jobs']> = (deps, inUnit) => {
  deps.jobs.define<StageJob>(STAGE_JOB, (job) => inUnit((services) => services.factory.runStage(job.attrs.data)), {
    concurrency: deps.config.FACTORY_CONCURRENCY,
    backoff: exponential({
      delay: deps.config.FACTORY_RETRY_DELAY_MS,
      factor: 2,
      maxDelay: 5 * 60_000,
      maxRetries: deps.config.FACTORY_STAGE_ATTEMPTS,
    }),
  });
};
