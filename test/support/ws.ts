import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface Subscription<T> {
  /** Every payload received so far, in order. */
  events: { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }[];
  /** Resolves once the subscription listens (or was refused). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a graphql-ws connection to the service with the token in `connection_init`; a lazy client
 * (the default) closes its socket when its last operation ends.
 */
export function connect(baseUrl: string, token?: string, lazy = true): Client {
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy,
    // A non-lazy client reports a close outside any operation here; tests read it with closeCodeOf.
    onNonLazyError: () => undefined,
  });
}

/**
 * Subscribes and collects what arrives. A subscription has no acknowledgement in the protocol, so
 * readiness is the answer of a query sent over the same socket after it: the service runs an
 * operation only once the subscriptions sent before it on the socket listen.
 */
export function subscribe<T = any>(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
): Subscription<T> {
  const events: Subscription<T>['events'] = [];
  let failed: unknown;
  const stop = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => void events.push(value as never),
      error: (error) => {
        failed = error;
      },
      complete: () => undefined,
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: '{ __typename }' },
      { next: () => undefined, error: reject, complete: () => (failed ? reject(failed) : resolve()) },
    );
  });
  return {
    events,
    ready,
    async close() {
      stop();
      await client.dispose();
    },
  };
}

/** Waits until `predicate` holds, polling; fails with `what` after the timeout. */
export async function eventually(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The close code the server ends the client's socket with (register before the socket opens). */
export function closeCodeOf(client: Client): Promise<number> {
  return new Promise((resolve) => client.on('closed', (event) => resolve((event as { code: number }).code)));
}

/** Runs one query or mutation over the socket: its result, or the errors it was refused with. */
export function operate<T = any>(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  return new Promise((resolve) => {
    let result: { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] } = {};
    client.subscribe<T>(
      { query, variables },
      {
        next: (value) => void (result = value as never),
        error: (error) =>
          resolve(
            Array.isArray(error)
              ? { errors: error as never }
              : {
                  errors: [
                    {
                      message: String((error as { reason?: string }).reason ?? error),
                      extensions: { closeCode: (error as { code?: number }).code },
                    },
                  ],
                },
          ),
        complete: () => resolve(result),
      },
    );
  });
}
