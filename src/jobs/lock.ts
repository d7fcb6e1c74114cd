import type { Job } from 'agenda';

/**
 * Runs a job's work while renewing its lock every third of the lock's lifetime. A job that outlives
 * its lock is counted dead: Agenda hands it to the next poll, and the work runs twice at once.
 * Renewing on a timer, not between steps, keeps the lock however long one step (a model call, a
 * large account's export) takes.
 */
export async function holdingLock<T>(job: Pick<Job, 'touch'>, lockLifetimeMs: number, work: () => Promise<T>): Promise<T> {
  const renew = setInterval(() => job.touch().catch(() => clearInterval(renew)), Math.max(200, Math.floor(lockLifetimeMs / 3)));
  try {
    return await work();
  } finally {
    clearInterval(renew);
  }
}
