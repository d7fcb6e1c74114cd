import { setMaxListeners } from 'node:events';
import { createPubSub } from '@graphql-yoga/subscription';
import type { Logger } from 'pino';
import { Client } from 'pg';

/** Also the outbox's: a unit of work NOTIFYs the relays here once its rows are committed (src/kernel/unit-of-work.ts). */
export const EVENTS_CHANNEL = 'learning_platform_events';
/** PostgreSQL drops NOTIFY payloads of 8000 bytes or more: events carry ids, subscribers fetch data. */
const MAX_PAYLOAD_BYTES = 7900;

export type EventPubSub = ReturnType<typeof createPubSub> & {
  close(): Promise<void>;
  /** True while this instance listens: events of other instances reach it. */
  connected(): boolean;
  /**
   * Calls `listener` for each event of `type` on this instance, at once (no async iterator): for
   * in-memory caches that must drop an entry as soon as the event arrives. `connection` events
   * (detail `true` or `false`) tell when the listening connection is lost and back, so that a cache
   * can stop trusting itself while events may be missed. Returns the unsubscribe.
   */
  listen(type: string, listener: (detail: unknown) => void): () => void;
  /** Hands an event to this instance's listeners only, synchronously (nothing is sent). */
  local(type: string, detail: unknown): void;
};

/** Local event (never sent): the listening connection was lost (`false`) or is back (`true`). */
export const CONNECTION_EVENT = 'pubsub:connection';

/**
 * A pub/sub whose events reach the subscribers of every instance on the same database: publishing
 * sends a NOTIFY, and each instance's LISTEN connection hands the event to its local subscribers.
 */
export async function createPostgresPubSub(
  databaseUrl: string,
  log: Logger,
  regionUrls: readonly string[] = [],
): Promise<EventPubSub> {
  const target = new PostgresEventTarget(databaseUrl, log);
  // Each region's database announces the changes made in it (a consent revoked in vn's, by its
  // triggers): this instance listens there too, and hands what it hears to the same subscribers.
  const regions = regionUrls.map((url) => new PostgresEventTarget(url, log, target));
  const listeners = [target, ...regions];
  await Promise.all(listeners.map((listener) => listener.connect()));
  const pubSub = createPubSub({ eventTarget: target });
  return Object.assign(pubSub, {
    close: async () => void (await Promise.all(listeners.map((listener) => listener.close()))),
    connected: () => listeners.every((listener) => listener.connected),
    listen(type: string, listener: (detail: unknown) => void) {
      const handler = (event: Event) => listener((event as CustomEvent).detail);
      target.addEventListener(type, handler);
      return () => target.removeEventListener(type, handler);
    },
    local: (type: string, detail: unknown) => target.deliverLocally(type, detail),
  });
}

class PostgresEventTarget extends EventTarget {
  private client?: Client;
  private closed = false;
  private reconnectDelay = 250;
  /** Events waiting for the NOTIFY under way to finish: they go together in the next one. */
  private queued: { type: string; payload: string }[] = [];
  private sending = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
    /** The target whose subscribers hear this connection's events: itself, unless it only listens for it. */
    private readonly heardBy?: PostgresEventTarget,
  ) {
    super();
    // One listener per live subscription of a topic (an account's sockets): no limit to warn at.
    setMaxListeners(0, this);
  }

  async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: 3000 });
    client.on('notification', (message) => this.deliver(message.payload));
    client.on('error', (error) => this.reconnect(client, error));
    client.on('end', () => this.reconnect(client));
    await client.connect();
    // A NOTIFY is its own transaction on this connection; it carries ids, nothing to keep on disk,
    // so it need not wait for the WAL flush (the data it points to was committed durably before).
    await client.query('set synchronous_commit = off');
    await client.query(`listen ${EVENTS_CHANNEL}`);
    this.client = client;
    this.reconnectDelay = 250;
    this.hand(CONNECTION_EVENT, true);
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  override dispatchEvent(event: Event): boolean {
    const payload = JSON.stringify({ type: event.type, detail: (event as CustomEvent).detail });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      throw new Error(`Event ${event.type} is too large for NOTIFY; publish ids, not data`);
    }
    if (!this.client) {
      this.log.warn({ event: event.type }, 'event not published: the event connection is down');
      return false;
    }
    this.queued.push({ type: event.type, payload });
    if (!this.sending) void this.send();
    return true;
  }

  /**
   * Sends what is queued, one statement at a time on the one connection (pg does not queue queries
   * for us): an event alone as it is, events published meanwhile together (`{"events":[...]}`,
   * packed up to the payload limit, in order), so a burst costs a few round trips, not one each.
   */
  private async send(): Promise<void> {
    this.sending = true;
    try {
      while (this.queued.length && this.client) {
        const events = this.queued;
        this.queued = [];
        const payloads = events.length === 1 ? [events[0].payload] : packed(events.map((e) => e.payload));
        try {
          await this.client.query('select pg_notify($1, p) from unnest($2::text[]) as p', [EVENTS_CHANNEL, payloads]);
        } catch (error) {
          this.log.warn({ err: error, events: events.map((e) => e.type) }, 'events not published');
        }
      }
      if (this.queued.length) {
        this.log.warn({ events: this.queued.map((e) => e.type) }, 'events not published: the event connection is down');
        this.queued = [];
      }
    } finally {
      this.sending = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  deliverLocally(type: string, detail: unknown): void {
    super.dispatchEvent(new CustomEvent(type, { detail }));
  }

  private deliver(payload: string | undefined): void {
    if (!payload) return;
    const message = JSON.parse(payload) as
      { type: string; detail: unknown } | { events: { type: string; detail: unknown }[] };
    for (const { type, detail } of 'events' in message ? message.events : [message]) this.hand(type, detail);
  }

  private hand(type: string, detail: unknown): void {
    if (this.heardBy) this.heardBy.deliverLocally(type, detail);
    else super.dispatchEvent(new CustomEvent(type, { detail }));
  }

  /** Events sent while the connection is down are lost; subscribers re-read state when they resume. */
  private reconnect(client: Client, error?: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.hand(CONNECTION_EVENT, false);
    this.log.warn({ err: error }, 'event connection lost; reconnecting');
    client.end().catch(() => {});
    const retry = () => {
      if (this.closed) return;
      this.connect().catch(() => {
        this.reconnectDelay = Math.min(this.reconnectDelay * 2, 10_000);
        setTimeout(retry, this.reconnectDelay).unref();
      });
    };
    setTimeout(retry, this.reconnectDelay).unref();
  }
}

/**
 * Events (each a JSON `{type, detail}`) packed in order into as few NOTIFY payloads as fit under the
 * limit. Each carries its place (`n`): PostgreSQL folds identical payloads sent in one transaction.
 */
export function packed(events: string[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let size = 0;
  const close = () => {
    if (batch.length) payloads.push(`{"n":${payloads.length},"events":[${batch.join(',')}]}`);
    batch = [];
    size = 0;
  };
  for (const event of events) {
    const bytes = Buffer.byteLength(event) + 1;
    if (size + bytes > MAX_PAYLOAD_BYTES - 40) close();
    batch.push(event);
    size += bytes;
  }
  close();
  return payloads;
}
