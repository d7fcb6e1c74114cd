import type { Job } from 'agenda';

/** Ids of the jobs this process is running now. */
const runningHere = new Set<string>();

/**
 * Runs a job's work while renewing its lock every third of the lock's lifetime. A job that outlives
 * its lock is counted dead: Agenda hands it to the next poll, and the work runs twice at once.
 * Renewing on a timer, not between steps, keeps the lock however long one step (a model call, a
 * large account's export) takes; a renewal that fails (the database busy or restarting) is tried
 * again at the next tick rather than given up.
 *
 * A poll of this same process can still see the lock as expired when its query overtakes a renewal
 * queued behind it on a busy pool, and Agenda keeps no list of the jobs it runs: that second run
 * of a job already running here ends at once, leaving the work to the first.
 */
export async function holdingLock<T>(job: Pick<Job, 'touch' | 'attrs'>, lockLifetimeMs: number, work: () => Promise<T>): Promise<T | undefined> {
  const id = String(job.attrs._id);
  if (runningHere.has(id)) return undefined;
  runningHere.add(id);
  const renew = setInterval(() => job.touch().catch(() => undefined), Math.max(200, Math.floor(lockLifetimeMs / 3)));
  try {
    return await work();
  } finally {
    clearInterval(renew);
    runningHere.delete(id);
  }
}
