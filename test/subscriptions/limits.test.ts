import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SOCKETS_PER_ACCOUNT, MAX_SUBSCRIPTIONS_PER_SOCKET, TOO_MANY_SOCKETS } from '../../src/server/ws';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, signUp } from '../support/users';
import { closeCodeOf, connect, operate } from '../support/ws';

// One token opened 150 sockets in 239 ms, and a socket took any number of subscriptions.
const ACCOUNT_CHANGED = 'subscription { accountChanged { id status } }';
let t: TestApp;
const open: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  for (const client of open) void client.dispose();
  await t?.close();
});

/** A socket whose connection the server acknowledged, or the code it was closed with. */
function socket(token: string): Promise<{ client: Client; closed: Promise<number> }> {
  const client = connect(t.url, token, false);
  open.push(client);
  const closed = closeCodeOf(client);
  return new Promise((resolve, reject) => {
    client.on('connected', () => resolve({ client, closed }));
    void closed.then((code) => reject(new Error(`closed with ${code}`)));
  });
}

describe('WebSocket limits', () => {
  it(`at most ${MAX_SOCKETS_PER_ACCOUNT} sockets per account: the next is closed with ${TOO_MANY_SOCKETS}; closing one frees its place; other accounts are not counted`, async () => {
    const user = await signUp(t, adultSignup());
    const sockets = [];
    for (let i = 0; i < MAX_SOCKETS_PER_ACCOUNT; i++) sockets.push(await socket(user.accessToken));
    const eleventh = connect(t.url, user.accessToken, false);
    open.push(eleventh);
    expect(await closeCodeOf(eleventh)).toBe(4429);
    // The ten still work.
    expect((await operate(sockets[9].client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });
    // Another account connects as usual.
    const other = await signUp(t, adultSignup());
    expect((await operate((await socket(other.accessToken)).client, '{ me { id } }')).data).toEqual({
      me: { id: other.id },
    });

    await sockets[0].client.dispose();
    await sockets[0].closed;
    let again: Awaited<ReturnType<typeof socket>> | undefined;
    // The server hears of the close a moment after the client.
    for (let i = 0; i < 20 && !again; i++)
      again = await socket(user.accessToken).catch(
        () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50)),
      );
    expect(again).toBeDefined();
    expect((await operate(again!.client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });
  });

  it(`at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per socket: the next answers LIMIT_REACHED; queries still run; completing one frees its place`, async () => {
    const user = await signUp(t, adultSignup());
    const { client } = await socket(user.accessToken);
    /** Subscribes; resolves with its stop function once the server took it, or with the errors it was refused with. */
    const start = async (): Promise<{
      stop: () => void;
      errors?: { extensions?: Record<string, unknown>; message: string }[];
    }> => {
      let errors: { extensions?: Record<string, unknown>; message: string }[] | undefined;
      const stop = client.subscribe(
        { query: ACCOUNT_CHANGED },
        { next: () => undefined, error: (e) => void (errors = e as never), complete: () => undefined },
      );
      // The server answers a refusal at once; a query sent after it returns once the subscription was handled.
      await operate(client, '{ __typename }');
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { stop, errors };
    };
    const live = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_SOCKET; i++) {
      const started = await start();
      expect(started.errors, `subscription ${i + 1}`).toBeUndefined();
      live.push(started);
    }
    const refused = await operate(client, ACCOUNT_CHANGED);
    expect(refused.errors?.[0].extensions?.code).toBe('LIMIT_REACHED');
    expect(refused.errors?.[0].message).toMatch(/20 subscriptions/);
    // Queries are not subscriptions: they still run on the socket.
    expect((await operate(client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });

    // Completing one frees one place, and only one.
    live[0].stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await start()).errors).toBeUndefined();
    expect((await operate(client, ACCOUNT_CHANGED)).errors?.[0].extensions?.code).toBe('LIMIT_REACHED');
  });
});
