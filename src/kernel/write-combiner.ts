export interface CombinerOptions<T> {
  /** Most items one statement carries. */
  maxBatch: number;
  /** Most statements under way at once (the connections the writer may hold). */
  maxStatements: number;
  /** Items with the same key never run in two statements at once (their rows would wait on each other's locks): the later waits for the next. */
  keyOf?: (item: T) => string;
  /** Whether items with the same key may go in one statement (the writer adds them up) or each needs its own. */
  sameKeyTogether?: boolean;
}

/**
 * Writes items that arrive while statements are under way together, in the next statement: under
 * load a round trip to the database serves hundreds of requests, and a lone request still goes in
 * the same turn of the event loop (no timer). The writer settles each item of its batch itself.
 */
export class WriteCombiner<T> {
  private waiting: T[] = [];
  private underWay = 0;
  /** Keys of items in a statement under way. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly options: CombinerOptions<T>,
  ) {}

  private scheduled = false;

  add(item: T): void {
    this.waiting.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    // What the rest of this turn of the event loop adds goes along: a request's buckets, and the
    // requests whose sockets were read in the same poll (clients answered together come back
    // together). Sent at the end of the microtasks instead, the first chats of such a burst went
    // one to a statement and the rest waited for them: the AI proxy at 10 connections sent 1.5
    // statements a chat, 0.6 to 0.8 this way. A lone request still goes in this turn, without a timer.
    setImmediate(() => {
      this.scheduled = false;
      this.next();
    });
  }

  private next(): void {
    if (this.underWay >= this.options.maxStatements || this.waiting.length === 0) return;
    const { keyOf, maxBatch, sameKeyTogether } = this.options;
    const batch: T[] = [];
    const later: T[] = [];
    const mine = new Set<string>();
    for (const item of this.waiting) {
      const key = keyOf?.(item);
      const taken = key !== undefined && (this.inFlight.has(key) || (mine.has(key) && !sameKeyTogether));
      if (batch.length >= maxBatch || taken) later.push(item);
      else {
        if (key !== undefined) mine.add(key);
        batch.push(item);
      }
    }
    for (const key of mine) this.inFlight.add(key);
    this.waiting = later;
    if (batch.length === 0) return;
    this.underWay++;
    const done = () => {
      this.underWay--;
      for (const key of mine) this.inFlight.delete(key);
      this.next();
    };
    // The writer settles (or fails) every item of its batch itself; its own promise only says it is over.
    this.write(batch).then(done, done);
    this.next();
  }
}
