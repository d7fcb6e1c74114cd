import { ACCESS_CHANGED } from './access';
import { putLast } from './expiry-ordered';
import { CONNECTION_EVENT, type EventPubSub } from './pubsub';

export interface AccessCacheOptions<T> {
  /** How long a value is kept at most; 0 keeps nothing. */
  ttlMs: number;
  /** At most this many people's values are kept; the oldest go first. */
  maxEntries: number;
  /** A time the value must not outlive (the AI's daily quota: the end of the UTC day). */
  until?: () => number;
  /** Whether a value is worth keeping (an account that does not exist is not). */
  keep?: (value: T) => boolean;
}

/**
 * Values per person (an account, the AI proxy's decisions) kept in memory until something they are
 * made of changes. The database announces every such change on the event channel (`accessChanged`)
 * to every instance at commit, and an instance's own writes say so before they answer, so a change
 * is seen by the very next request here and on every other instance as soon as the NOTIFY lands.
 * While the event connection is down nothing is trusted: every request reads afresh. A value being
 * made while its person changes answers its caller but is not kept: it may have read the old state.
 */
export class AccessCache<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();
  /** Values under way: callers who arrive meanwhile wait for the same one. */
  private readonly pending = new Map<string, Promise<T>>();
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly pubSub: Pick<EventPubSub, 'connected' | 'listen'>,
    private readonly options: AccessCacheOptions<T>,
  ) {
    this.unsubscribe = [
      pubSub.listen(ACCESS_CHANGED, (detail) => (detail === '*' ? this.clear() : this.drop(String(detail)))),
      // Events sent while the connection was down are lost: nothing kept from before is trusted.
      pubSub.listen(CONNECTION_EVENT, () => this.clear()),
    ];
  }

  /** The person's value: kept, being made, or made now by `make` (a rejection is not kept). */
  get(personId: string, make: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(personId);
    if (kept && kept.expires > Date.now()) return Promise.resolve(kept.value);
    if (this.options.ttlMs === 0 || !this.pubSub.connected()) return make();
    const under = this.pending.get(personId);
    if (under) return under;
    const made = make();
    this.pending.set(personId, made);
    made.then(
      (value) => {
        // Dropped meanwhile (a change arrived while making it): answer this caller, keep nothing.
        if (this.pending.get(personId) !== made) return;
        this.pending.delete(personId);
        if (this.options.keep && !this.options.keep(value)) return;
        // Values expire in the order they were kept (`until` only moves forward). Without dropping
        // the expired, a value read once stayed until the cache was full: a service that meets new
        // people all day grew to `maxEntries` accounts (50,000 rows) and decisions (100,000).
        const now = Date.now();
        const expires = now + this.options.ttlMs;
        putLast(
          this.entries,
          personId,
          { value, expires: this.options.until ? Math.min(expires, this.options.until()) : expires },
          { max: this.options.maxEntries, expiresAt: (entry) => entry.expires, now },
        );
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
    for (const stop of this.unsubscribe.splice(0)) stop();
    this.clear();
  }
}
