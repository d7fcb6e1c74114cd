/**
 * Claimed work (an outbox row, a job, an export, an erasure, a batch of reports) is held under a
 * lease: a time after which another instance may take it, should this one die. Leases are short
 * (under a minute) so that a killed instance's work is taken over soon, and the holder renews its
 * lease every third of it while the work runs, so that long work is not taken twice.
 */

/** How often a holder renews a lease of `leaseMs`: three chances before it runs out. */
export function renewalEvery(leaseMs: number): number {
  return Math.max(200, Math.floor(leaseMs / 3));
}

/**
 * Runs `work` while calling `renew` every third of the lease. Renewing on a timer, not between
 * steps, keeps the lease however long one step (a model call, a large account's export) takes; a
 * renewal that fails (the database busy or restarting) is tried again at the next tick.
 */
export async function whileLeased<T>(
  leaseMs: number,
  renew: () => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  const timer = setInterval(() => void renew().catch(() => undefined), renewalEvery(leaseMs));
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** When a claim taken now for `leaseMs` runs out. */
export function leaseEnd(leaseMs: number, now = new Date()): Date {
  return new Date(now.getTime() + leaseMs);
}

/**
 * Thrown by work that found its claim held under another run's lease: that run may have died, so
 * the work is tried again once the lease ends instead of being reported done.
 */
export class ClaimHeld extends Error {
  constructor(readonly until: Date) {
    super(`claimed by another run until ${until.toISOString()}`);
  }
}
