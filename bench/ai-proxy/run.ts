import '../production';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { onPath } from '../../src/scripts/fleet/fleet';
import { killGroup } from '../../src/scripts/fleet/processes';
import { startRedis } from '../../src/scripts/fleet/redis';
import { OPENAI_BODY, OPENAI_PATH, OPENAI_REPLY, startPortkey } from './portkey';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const BACKEND_DELAY_MS = 50;
const FEW = 10;
const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const SECRET = 'bench-ai-backend-secret-0123456789';

/**
 * The backend of docs/ai-backend.md, answering after 50 ms; streams send their first event at once.
 * The same backend answers OpenAI's chat completions (Portkey's side) with the same delay.
 */
function startBackend(): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === OPENAI_PATH) {
        if (body.includes('"stream":true')) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(
            'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":0,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n',
          );
          setTimeout(() => res.end('data: [DONE]\n\n'), BACKEND_DELAY_MS);
          return;
        }
        setTimeout(
          () => res.writeHead(200, { 'content-type': 'application/json' }).end(OPENAI_REPLY),
          BACKEND_DELAY_MS,
        );
        return;
      }
      if (req.headers.accept?.includes('text/event-stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"delta":"Hello"}\n\n');
        setTimeout(
          () => res.end('event: done\ndata: {"conversationId":"c1","usage":{"totalTokens":3}}\n\n'),
          BACKEND_DELAY_MS,
        );
        return;
      }
      setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"conversationId":"c1","reply":"Hello","usage":{"totalTokens":3}}'),
        BACKEND_DELAY_MS,
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

interface Target {
  /** Each connection sends as one of these (none: no token, straight to the backend or to Portkey). */
  tokens?: string[];
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
}

async function load(
  name: string,
  url: string,
  {
    tokens = [],
    headers = { 'content-type': 'application/json' },
    body = '{"message":"What is a loop?"}',
    connections = CONNECTIONS,
  }: Target = {},
) {
  let next = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    setupClient: (client) => {
      if (tokens.length) client.setHeaders({ ...headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` });
    },
    body,
    connections,
    duration: DURATION,
  });
  console.log(
    `${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} ${result.latency.p50.toFixed(1).padStart(9)} ${result.latency.p99.toFixed(1).padStart(8)} ${String(result.non2xx + result.errors).padStart(8)}${result.non2xx + result.errors ? `  ${JSON.stringify({ ...result.statusCodeStats, errors: result.errors, timeouts: result.timeouts })}` : ''}`,
  );
  return result;
}

async function timeToFirstByte(
  url: string,
  headers: Record<string, string>,
  body = '{"message":"Stream"}',
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body,
    });
    const reader = response.body!.getReader();
    await reader.read();
    times.push(performance.now() - started);
    while (!(await reader.read()).done);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;

/**
 * Where the service counts its rate limits: Redis, as deployed (compose, Kubernetes), when
 * redis-server is on the PATH, else PostgreSQL; BENCH_LIMITS=postgres measures the database's store.
 */
async function limitsStore(): Promise<{ name: string; url?: string }> {
  if (process.env.BENCH_LIMITS === 'postgres' || !onPath('redis-server')) return { name: 'PostgreSQL' };
  const { url, member } = await startRedis(() => undefined);
  // Its own process group outlives the bench unless stopped, whichever way the bench ends.
  process.once('exit', () => killGroup(member, 'SIGKILL'));
  return { name: 'Redis', url };
}

/**
 * The same clients straight to the backend, through a bare pass-through proxy (the baseline),
 * through the service and through Portkey's gateway (the peer, OpenAI's format to the same backend),
 * at 200 connections and at 10, in the same run; then the time to the first streamed byte each way.
 * The service, the bare proxy and Portkey each run in a child process of their own.
 */
async function main() {
  const backend = await startBackend();
  const limits = await limitsStore();
  const env = {
    ...process.env,
    ...(limits.url ? { REDIS_URL: limits.url } : {}),
    AI_BACKEND_URL: backend,
    AI_BACKEND_SECRET: SECRET,
    JWT_SECRET: process.env.JWT_SECRET ?? 'bench-jwt-secret-that-is-long-enough-for-hs256',
  };
  // BENCH_PROFILE=<dir>: the service writes a CPU profile there (node --cpu-prof) when it stops.
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(join(__dirname, 'server.js'), { env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const bareChild = fork(join(__dirname, 'server.js'), ['bare'], {
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const portkey = await startPortkey(backend);
  const service = await new Promise<{ url: string; tokens: string[] }>((resolve) =>
    child.once('message', resolve as never),
  );
  const bareProxy = await new Promise<{ url: string }>((resolve) => bareChild.once('message', resolve as never));
  const auth = { authorization: `Bearer ${service.tokens[0]}` };
  const { tokens } = service;
  const viaPortkey = (connections = CONNECTIONS): Target => ({
    headers: portkey.headers,
    body: OPENAI_BODY,
    connections,
  });

  await load('warm-up', `${service.url}/ai/chat`, { tokens });
  await load('warm-up Portkey', `${portkey.url}${OPENAI_PATH}`, viaPortkey());
  console.log(
    `\n${CONNECTIONS} connections as ${tokens.length} learners, ${DURATION} s each, backend answers after ${BACKEND_DELAY_MS} ms, rate limits counted in ${limits.name}, Node ${process.version}`,
  );
  console.log('target                         req/s    p50 ms   p99 ms  non-2xx');
  const direct = await load('direct to the backend', `${backend}/chat`);
  const bare = await load('bare proxy (JWT + undici)', `${bareProxy.url}/ai/chat`, { tokens });
  const proxied = await load('through the proxy', `${service.url}/ai/chat`, { tokens });
  const peer = await load('Portkey gateway (OpenAI)', `${portkey.url}${OPENAI_PATH}`, viaPortkey());
  console.log(
    `\nadded latency p50: ${(proxied.latency.p50 - direct.latency.p50).toFixed(1)} ms over direct, bare proxy ${(bare.latency.p50 - direct.latency.p50).toFixed(1)} ms, Portkey ${(peer.latency.p50 - direct.latency.p50).toFixed(1)} ms`,
  );
  console.log(
    `throughput through the proxy: ${percent(proxied.requests.average, bare.requests.average)} of the bare proxy (aim >= 80%), ${percent(proxied.requests.average, direct.requests.average)} of direct`,
  );
  console.log(
    `against Portkey: ${percent(proxied.requests.average, peer.requests.average)} of its req/s (aim >= 150%), p99 ${proxied.latency.p99.toFixed(1)} ms against its ${peer.latency.p99.toFixed(1)} ms (aim: lower)`,
  );

  // Few clients: what the proxy adds to one message when nothing waits in a queue.
  console.log(`\n${FEW} connections (no queueing)`);
  const fewDirect = await load('direct to the backend', `${backend}/chat`, { connections: FEW });
  const fewBare = await load('bare proxy (JWT + undici)', `${bareProxy.url}/ai/chat`, { tokens, connections: FEW });
  const fewProxied = await load('through the proxy', `${service.url}/ai/chat`, { tokens, connections: FEW });
  const fewPeer = await load('Portkey gateway (OpenAI)', `${portkey.url}${OPENAI_PATH}`, viaPortkey(FEW));
  // autocannon's percentiles are whole milliseconds; its mean is not, so the aim is on the mean.
  const added = (r: typeof fewDirect) => (r.latency.mean - fewDirect.latency.mean).toFixed(2);
  console.log(
    `added latency at ${FEW} connections, mean: ${added(fewProxied)} ms over direct (aim < 2 ms, LiteLLM documents 3.25 ms), bare proxy ${added(fewBare)} ms, Portkey ${added(fewPeer)} ms; p50 ${(fewProxied.latency.p50 - fewDirect.latency.p50).toFixed(1)} ms`,
  );

  const ttfbDirect = await timeToFirstByte(`${backend}/chat`, {});
  const ttfbBare = await timeToFirstByte(`${bareProxy.url}/ai/chat`, auth);
  const ttfbProxy = await timeToFirstByte(`${service.url}/ai/chat`, auth);
  const ttfbPortkey = await timeToFirstByte(
    `${portkey.url}${OPENAI_PATH}`,
    portkey.headers,
    OPENAI_BODY.replace(/}$/, ',"stream":true}'),
  );
  console.log(
    `streaming, time to first byte (p50 of ${STREAMS}): direct ${ttfbDirect.toFixed(1)} ms, bare proxy ${ttfbBare.toFixed(1)} ms, through the proxy ${ttfbProxy.toFixed(1)} ms, Portkey ${ttfbPortkey.toFixed(1)} ms`,
  );

  bareChild.send('stop');
  child.send('stop');
  await Promise.all([
    ...[child, bareChild].map((c) => new Promise((resolve) => c.once('exit', resolve))),
    portkey.stop(),
  ]);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
