import '../production';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { childCpuMicros, type LoadFigures, loadFromChild } from '../support';

interface Target {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  body?: string;
}

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/**
 * Authenticated `GET /auth/me`, its GraphQL twin (the row's own document, `query Me { me { ...UserFields } }`:
 * the same fields, the same JSON as the baseline writes), the bare baseline, and Apollo alone answering
 * the same document from the same statement (the floor of any GraphQL answer through Apollo), in
 * alternating rounds so that the machine's noise falls on all four alike; the load generator runs
 * in a child of its own, the servers in another: besides requests per second, the servers' CPU
 * time per request, which the machine's other load moves less.
 */
async function main() {
  const child = fork(join(__dirname, 'servers.js'), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const servers = await new Promise<{ service: string; baseline: string; apollo: string; token: string; me: string }>(
    (resolve, reject) => {
      child.once('message', resolve as never);
      child.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
    },
  );
  const targets: Target[] = [
    { name: 'REST GET /auth/me', url: `${servers.service}/auth/me`, method: 'GET' },
    {
      name: 'GraphQL twin (query Me)',
      url: `${servers.service}/graphql`,
      method: 'POST',
      body: JSON.stringify({ query: servers.me }),
    },
    { name: 'baseline express + pg', url: `${servers.baseline}/me`, method: 'GET' },
    {
      name: 'bare Apollo + pg (query Me)',
      url: servers.apollo,
      method: 'POST',
      body: JSON.stringify({ query: servers.me }),
    },
  ];
  const headers = { authorization: `Bearer ${servers.token}`, 'content-type': 'application/json' };
  const results = new Map<string, LoadFigures[]>();
  const load = (target: Target, duration: number) =>
    loadFromChild(
      { url: target.url, method: target.method, body: target.body, headers },
      { connections: CONNECTIONS, duration },
      () => childCpuMicros(child),
    );
  for (const target of targets) await load(target, 2); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const figures = await load(target, DURATION);
      results.set(target.name, [...(results.get(target.name) ?? []), figures]);
    }
  }
  child.send('stop');

  const mean = (name: string) => {
    const runs = results.get(name)!;
    const avg = (key: keyof LoadFigures) => runs.reduce((sum, r) => sum + (r[key] ?? 0), 0) / runs.length;
    return { rps: avg('rps'), p50: avg('p50'), p99: avg('p99'), errors: avg('errors'), cpuMs: avg('cpuMs') };
  };
  console.log(`\n${ROUNDS} rounds x ${DURATION} s, ${CONNECTIONS} connections, Node ${process.version}`);
  console.log('target                          req/s     p50 ms   p99 ms  CPU ms/req   non-2xx');
  for (const target of targets) {
    const f = mean(target.name);
    console.log(
      `${target.name.padEnd(30)} ${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(1).padStart(9)} ${f.p99.toFixed(1).padStart(8)} ${f.cpuMs.toFixed(3).padStart(11)} ${f.errors.toFixed(0).padStart(9)}`,
    );
  }
  const [rest, graphql, baseline, apollo] = targets.map((t) => mean(t.name));
  // In brackets: the same ratio of CPU time per request (the faster one's CPU over the other's).
  const ratio = (a: typeof rest, b: typeof rest) =>
    `${((a.rps / b.rps) * 100).toFixed(0)}% (${((b.cpuMs / a.cpuMs) * 100).toFixed(0)}% by CPU time)`;
  console.log(`\nREST / GraphQL twin:     ${ratio(rest, graphql)}; aim >= 95%`);
  console.log(`GraphQL / bare baseline: ${ratio(graphql, baseline)}; aim >= 85%`);
  // Apollo and graphql-js alone, nothing of ours: the most a GraphQL answer through them can reach here.
  console.log(
    `bare Apollo / bare baseline: ${ratio(apollo, baseline)}; GraphQL twin / bare Apollo: ${ratio(graphql, apollo)}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
