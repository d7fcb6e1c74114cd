import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * The subscribers, in a process of their own: neither the producing instance's work nor the
 * server's delays when their messages are read. Times are epoch milliseconds
 * (`performance.timeOrigin + performance.now()`), comparable with the producer's on one machine.
 */
const now = () => performance.timeOrigin + performance.now();
const received = new Map<string, number[]>();
const bareReceived: number[] = [];
const clients: Client[] = [];
const bare: WebSocket[] = [];

/** Opens `batch` at a time, each ready when `open` resolves, so the server's backlog is never overrun. */
async function inBatches<T>(items: T[], batch: number, open: (item: T) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += batch) await Promise.all(items.slice(i, i + batch).map(open));
}

type Message = {
  subscribe?: { url: string; tokens: [string, string][] };
  bare?: { port: number; n: number };
  bareClose?: true;
  count?: number;
  report?: true;
  stop?: true;
};

process.on('message', async (message: Message) => {
  if (message.subscribe) {
    const { url, tokens } = message.subscribe;
    await inBatches(tokens, 250, async ([id, token]) => {
      const client = createClient({
        url: `${url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      clients.push(client);
      received.set(id, []);
      client.subscribe(
        { query: 'subscription { notificationAdded { id title } }' },
        { next: () => void received.get(id)!.push(now()), error: () => undefined, complete: () => undefined },
      );
      // Readiness: an operation sent after the subscription on the same socket has been answered.
      await new Promise((resolve) =>
        client.subscribe(
          { query: '{ __typename }' },
          { next: () => undefined, error: resolve, complete: () => resolve(undefined) },
        ),
      );
    });
    process.send!({ subscribed: clients.length });
  } else if (message.bare) {
    const { port, n } = message.bare;
    await inBatches(
      Array.from({ length: n }, (_, i) => i),
      500,
      async () => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}`);
        socket.on('message', () => void bareReceived.push(now()));
        bare.push(socket);
        await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      },
    );
    process.send!({ open: bare.length });
  } else if (message.bareClose) {
    for (const socket of bare) socket.terminate();
    process.send!({ closed: true });
  } else if (message.count !== undefined) {
    let have = 0;
    for (const times of received.values()) if (times.length >= message.count) have++;
    process.send!({ have, bare: bareReceived.length });
  } else if (message.report) {
    process.send!({ received: Object.fromEntries(received), bare: bareReceived });
  } else if (message.stop) {
    await Promise.all(clients.map(async (c) => c.dispose()));
    process.exit(0);
  }
});
process.send!({ started: true });
