import { Agent, fetch, type Response } from 'undici';
import { describe, expect, it } from 'vitest';
import { withFleet } from '../support/fleet';
import { adultSignup } from '../support/users';

// Every instance restarted in turn (taken out of nginx's upstream, SIGTERM as a process manager
// stops it, started again, put back) while clients keep calling through nginx: no request of any
// method fails. Each call opens its own connection to nginx: a reload of nginx closes the client
// connections kept alive by its old workers, and a POST a client had just written on one fails at
// the client (browsers send it again; fetch does not), whatever the instances do behind it.
const noKeepAlive = new Agent({ pipelining: 0 });
const t = withFleet({ redis: false });

interface Outcome {
  what: string;
  status: number | string;
}

/** One client's calls, one after the other until `stop`: a read (GET), a GraphQL query (POST) and a sign-up (POST, a write). */
async function client(stop: () => boolean, outcomes: Outcome[]): Promise<void> {
  const calls: [string, () => Promise<Response>, number][] = [
    ['GET /courses', () => fetch(`${t.fleet.proxyUrl}/courses?first=5`, { dispatcher: noKeepAlive }), 200],
    [
      'POST /graphql',
      () =>
        fetch(`${t.fleet.proxyUrl}/graphql`, {
          dispatcher: noKeepAlive,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ courses(first: 5) { totalCount } }' }),
        }),
      200,
    ],
    [
      'POST /auth/signup',
      () =>
        fetch(`${t.fleet.proxyUrl}/auth/signup`, {
          dispatcher: noKeepAlive,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(adultSignup()),
        }),
      201,
    ],
  ];
  for (let i = 0; !stop(); i++) {
    const [what, call, expected] = calls[i % calls.length];
    const status = await call().then(
      async (response) => (await response.text(), response.status),
      (error: unknown) => `network: ${error instanceof Error ? error.message : String(error)}`,
    );
    outcomes.push({ what, status: status === expected ? 'ok' : status });
  }
}

describe('a rolling restart of the fleet behind nginx', () => {
  it(
    'restarts every instance, one at a time, under a steady mixed load, with no failed request',
    { timeout: 600_000 },
    async () => {
      const outcomes: Outcome[] = [];
      let done = false;
      const clients = Array.from({ length: 4 }, () => client(() => done, outcomes));
      const started = Date.now();
      for (const instance of t.fleet.instances) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await t.fleet.restart(instance);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      done = true;
      await Promise.all(clients);
      await noKeepAlive.close();
      const failed = outcomes.filter((outcome) => outcome.status !== 'ok');
      const counts = new Map<string, number>();
      for (const { what } of outcomes) counts.set(what, (counts.get(what) ?? 0) + 1);
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(
        `rolling restart of ${t.fleet.instances.length} instances in ${seconds} s: ${outcomes.length} requests (${[...counts].map(([what, n]) => `${what} ${n}`).join(', ')}), ${failed.length} failed`,
      );
      expect(outcomes.length).toBeGreaterThan(100);
      expect(failed).toEqual([]);
    },
  );
});
