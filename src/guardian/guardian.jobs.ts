import type { Deps } from '../kernel/deps';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';

/**
 * Asking the learner to confirm a declared link (the mail, and the notification when the address
 * has an account) is a job: the declaration itself does the same work whether or not the address
 * has an account, so its answer time tells nothing about it.
 */
export const ASK_LEARNER_JOB = 'guardian: ask learner';

export interface AskLearner {
  linkId: string;
  /** The confirmation token (only its hash is stored on the link); gone with the job once sent. */
  token: string;
}

export function defineGuardianJobs(
  deps: Deps,
  inUnit: (work: (services: Services, uow: UnitOfWork) => Promise<void>) => Promise<void>,
): void {
  deps.jobs.define<AskLearner>(
    ASK_LEARNER_JOB,
    (job) => inUnit((services) => services.guardian.askLearner(job.attrs.data.linkId, job.attrs.data.token)),
    {
      concurrency: 4,
      removeOnComplete: true,
    },
  );
}
