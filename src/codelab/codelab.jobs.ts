import type { Area } from '../kernel/area';
import { codeRunnerOf, JUDGE_JOB, type JudgeJob, RELEASE_JOB } from './codelab.service';

/**
 * Judging is one job per submission, CODELAB_JUDGE_CONCURRENCY at once per instance (each job's
 * tests queue on the interpreter pools). The interpreters warm up here, at start-up, so no
 * request waits for Pyodide to load.
 *
 * Releasing a verdict is a job of its own, queued with the submission: its first run, at once,
 * schedules the release at the submission's `releaseAt`, long before it is due, so it runs on time
 * whenever judging ended. A new job, not this one put off: Agenda hears of a saved job at once, but
 * of a running one's next time only when it next scans, which may come after the time.
 */
export const defineCodeLabJobs: NonNullable<Area['jobs']> = (deps, inUnit) => {
  if (deps.config.CODELAB_PREWARM) {
    codeRunnerOf(deps)
      .start()
      .catch((error: unknown) => deps.log.error({ err: error }, 'CodeLab interpreters failed to start'));
  }
  deps.jobs.define<JudgeJob>(
    JUDGE_JOB,
    (job) => inUnit((services) => services.codelab.judgeSubmission(job.attrs.data.submissionId)),
    // The submission keeps the verdict; a done job's row would stay in the table for good.
    { concurrency: deps.config.CODELAB_JUDGE_CONCURRENCY, removeOnComplete: true },
  );
  deps.jobs.agenda.define<JudgeJob>(
    RELEASE_JOB,
    async (job) => {
      let again: Date | null = null;
      await inUnit(async (services) => {
        again = await services.codelab.releaseVerdict(job.attrs.data.submissionId);
      });
      if (again) await deps.jobs.agenda.schedule(again, RELEASE_JOB, job.attrs.data);
    },
    { lockLifetime: deps.config.JOBS_LOCK_LIFETIME_MS, removeOnComplete: true },
  );
};
