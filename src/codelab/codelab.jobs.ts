import type { Area } from '../kernel/area';
import { codeRunnerOf, JUDGE_JOB, type JudgeJob } from './codelab.service';

/**
 * Judging is one job per submission, CODELAB_JUDGE_CONCURRENCY at once per instance (each job's
 * tests queue on the interpreter pools). The interpreters warm up here, at start-up, so no
 * request waits for Pyodide to load.
 */
export const defineCodeLabJobs: NonNullable<Area['jobs']> = (deps, inUnit) => {
  if (deps.config.CODELAB_PREWARM) {
    codeRunnerOf(deps)
      .start()
      .catch((error: unknown) => deps.log.error({ err: error }, 'CodeLab interpreters failed to start'));
  }
  deps.jobs.define<JudgeJob>(JUDGE_JOB, (job) => inUnit((services) => services.codelab.judgeSubmission(job.attrs.data.submissionId)), {
    concurrency: deps.config.CODELAB_JUDGE_CONCURRENCY,
  });
};
