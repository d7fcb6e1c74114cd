import type { Job } from 'agenda';
import { ClaimHeld, whileLeased } from '../kernel/lease';

/** Ids of the jobs this process is running now. */
const runningHere = new Set<string>();

/** Past the end of a lease held elsewhere: the clocks of two instances and their database differ a little. */
const AFTER_LEASE_MS = 250;

/**
 * Runs a job's work while renewing its lock (the job's lease, see kernel/lease). A job that outlives
 * its lock is counted dead: Agenda hands it to the next poll, and the work runs twice at once.
 *
 * Work that finds its claim held by another run (ClaimHeld) is scheduled again for when that lease
 * ends, without counting as a failure: the other run may have died with it.
 *
 * A poll of this same process can still see the lock as expired when its query overtakes a renewal
 * queued behind it on a busy pool, and Agenda keeps no list of the jobs it runs: that second run
 * of a job already running here ends at once, leaving the work to the first.
 */
export async function holdingLock<T>(
  job: Pick<Job, 'touch' | 'attrs' | 'schedule'>,
  lockLifetimeMs: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const id = String(job.attrs._id);
  if (runningHere.has(id)) return undefined;
  runningHere.add(id);
  try {
    return await whileLeased(lockLifetimeMs, () => job.touch(), work);
  } catch (error) {
    if (!(error instanceof ClaimHeld)) throw error;
    // Saved with the run's end: the job stays and comes back then.
    job.schedule(new Date(error.until.getTime() + AFTER_LEASE_MS));
    return undefined;
  } finally {
    runningHere.delete(id);
  }
}
