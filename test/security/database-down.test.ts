import { createServer, type Server, type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startTestApp, type TestApp } from '../support/app';
import { PASSWORD, type SignedIn, signUp } from '../support/users';

/** A TCP proxy in front of PostgreSQL that the test can take down and bring back, as a database restart would. */
function databaseProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      if (server?.listening) return resolve();
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      if (!server?.listening) return resolve();
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return {
    up,
    down,
    url: (database: string) => `postgres://${target.username}:${target.password}@127.0.0.1:${port}/${database}`,
  };
}

let t: TestApp;
let proxy: ReturnType<typeof databaseProxy>;
let user: SignedIn;
beforeAll(async () => {
  const direct = new URL(await createTestDatabase());
  proxy = databaseProxy(direct);
  await proxy.up();
  t = await startTestApp({}, proxy.url(direct.pathname.slice(1)));
  user = await signUp(t);
});
afterAll(async () => {
  await proxy.up();
  await t?.close();
  await proxy.down();
});

describe('the database down', () => {
  it('answers 503 upstream_unavailable on every path, REST and GraphQL, then recovers', async () => {
    expect((await t.http.get('/auth/me', { token: user.accessToken })).status).toBe(200);
    await proxy.down();

    const rest = [
      await t.http.get('/auth/me', { token: user.accessToken }),
      await t.http.get('/notifications', { token: user.accessToken }),
      await t.http.get('/courses'),
      await t.http.post('/auth/login', { email: user.email, password: PASSWORD }),
      await t.http.post('/auth/refresh', { refreshToken: user.refreshToken }),
      await t.http.get('/certificates', { token: user.accessToken }),
    ];
    for (const reply of rest) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(503);
      expect(reply.body.error).toBe('upstream_unavailable');
      expect(JSON.stringify(reply.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|select|stack/i);
    }
    for (const [query, token] of [
      ['{ me { id } }', user.accessToken],
      ['{ notifications { edges { cursor } } }', user.accessToken],
      ['{ courses { edges { cursor } } }', undefined],
    ] as const) {
      const gql = await t.http.gql(query, undefined, token);
      expect(gql.body.errors?.[0].extensions.code, JSON.stringify(gql.body)).toBe('UPSTREAM_UNAVAILABLE');
    }

    await proxy.up();
    // Within 15 s of the database coming back, the same token is served again (the answer says why if not).
    const deadline = Date.now() + 15_000;
    let reply = await t.http.get('/auth/me', { token: user.accessToken });
    while (reply.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      reply = await t.http.get('/auth/me', { token: user.accessToken });
    }
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });
});
