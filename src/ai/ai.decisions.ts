import { ACCESS_CHANGED } from '../kernel/access';
import type { EventPubSub } from '../kernel/pubsub';
import { CONNECTION_EVENT } from '../kernel/pubsub';
import { nextReset } from './ai.quota';

/** At most this many people's decisions are kept; the oldest go first. */
const MAX_ENTRIES = 100_000;

interface Entry<T> {
  value: T;
  expires: number;
}

/**
 * Per-person decisions of the AI proxy (what the permission rules answered, the memory flag, the
 * daily limit), kept in memory until something they are made of changes. The database announces
 * every such change on the event channel (`accessChanged`, see the AI area's migration) and this
 * instance's own writes say so before they answer (`accessChanged()` in the kernel), so a revoked
 * consent stops the very next request here and on every other instance as soon as the NOTIFY
 * lands. While the event connection is down nothing is trusted: every request decides afresh.
 *
 * A decision being made while its person changes is not kept: it may have read the old state.
 */
export class DecisionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Decisions under way: callers who arrive meanwhile wait for the same one. */
  private readonly pending = new Map<string, Promise<T>>();
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly pubSub: Pick<EventPubSub, 'connected' | 'listen'>,
    private readonly ttlMs: number,
  ) {
    this.unsubscribe = [
      pubSub.listen(ACCESS_CHANGED, (detail) => (detail === '*' ? this.clear() : this.drop(String(detail)))),
      // Events sent while the connection was down are lost: nothing kept from before is trusted.
      pubSub.listen(CONNECTION_EVENT, () => this.clear()),
    ];
  }

  /** The person's decision: kept, being made, or made now by `decide` (a rejection is not kept). */
  get(personId: string, decide: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(personId);
    if (kept && kept.expires > Date.now()) return Promise.resolve(kept.value);
    if (this.ttlMs === 0 || !this.pubSub.connected()) return decide();
    const under = this.pending.get(personId);
    if (under) return under;
    const made = decide();
    this.pending.set(personId, made);
    made.then(
      (value) => {
        // Dropped meanwhile (a change arrived while deciding): answer this caller, keep nothing.
        if (this.pending.get(personId) !== made) return;
        this.pending.delete(personId);
        if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
        // Ages and quotas count UTC days: nothing outlives the day it was decided on.
        this.entries.set(personId, { value, expires: Math.min(Date.now() + this.ttlMs, nextReset().getTime()) });
      },
      () => {
        if (this.pending.get(personId) === made) this.pending.delete(personId);
      },
    );
    return made;
  }

  drop(personId: string): void {
    this.entries.delete(personId);
    this.pending.delete(personId);
  }

  clear(): void {
    this.entries.clear();
    this.pending.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.clear();
  }
}
