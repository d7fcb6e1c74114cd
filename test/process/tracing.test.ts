import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/app';
import { freePort } from '../support/ports';
import { startSmtpServer, tokenFrom } from '../support/smtp';
import { connect, operate } from '../support/ws';

const dist = join(__dirname, '..', '..', 'dist', 'src');
const dataDirs: string[] = [];
const running: ChildProcess[] = [];

/** A span as OTLP/HTTP JSON carries it. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
  scope: string;
}
interface Export {
  resourceSpans: {
    resource: { attributes: Span['attributes'] };
    scopeSpans: { scope: { name: string }; spans: Omit<Span, 'scope'>[] }[];
  }[];
}

/** The collector: a real HTTP server taking OTLP/HTTP exports, as an OpenTelemetry collector would; it keeps every byte it was sent. */
async function startCollector() {
  const bodies: Buffer[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        contentTypes.push(req.headers['content-type'] ?? '');
        bodies.push(Buffer.concat(chunks));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    contentTypes,
    /** Every span received, with the name of the instrumentation that made it. */
    spans(): Span[] {
      const resources = bodies.flatMap((body) => (JSON.parse(body.toString('utf8')) as Export).resourceSpans);
      return resources.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, scope: s.scope.name }))),
      );
    },
    resources: () => bodies.flatMap((body) => (JSON.parse(body.toString('utf8')) as Export).resourceSpans),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The built service, exporting its spans to `collector`; stop() sends SIGTERM and waits for the exit. */
async function startTracedService(collector: string, env: Record<string, string> = {}) {
  const dataDir = makeDataDir('lp-tracing-');
  dataDirs.push(dataDir);
  const port = await freePort();
  const child = spawn(process.execPath, [join(dist, 'main.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: await createTestDatabase(),
      PORT: String(port),
      CODELAB_PREWARM: 'false',
      LOG_FORMAT: 'json',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector,
      OTEL_SERVICE_NAME: 'lp-tracing-test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await expect
    .poll(() => output.includes('Listening') || child.exitCode !== null, { timeout: 45_000, interval: 50 })
    .toBe(true);
  expect(child.exitCode, output).toBeNull();
  return {
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    // Spans go out in batches: the last batch is sent at shutdown, before the process exits.
    async stop() {
      child.kill('SIGTERM');
      await exited;
      expect(output).toContain('"msg":"stopped"');
    },
  };
}

afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value;
const statementOf = (span: Span) => (attribute(span, 'db.query.text') ?? attribute(span, 'db.statement'))?.stringValue;
const isServer = (span: Span) => span.scope === '@opentelemetry/instrumentation-http' && span.kind === 2;

async function json(response: Response): Promise<any> {
  const text = await response.text();
  expect(response.ok, `${response.status} ${text}`).toBe(true);
  return JSON.parse(text);
}

describe('tracing', () => {
  it('sends the spans of a GraphQL request (HTTP, GraphQL, SQL) to the OTLP collector, in the caller’s trace', async () => {
    const collector = await startCollector();
    const service = await startTracedService(collector.url);

    // The caller's W3C trace context: the service's spans join its trace.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await fetch(`${service.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ query: 'query TracedProbe { health { status database } }' }),
    });
    expect(await response.json()).toEqual({ data: { health: { status: 'ok', database: 'up' } } });

    await service.stop();
    await collector.close();
    expect(collector.contentTypes.length).toBeGreaterThan(0);
    expect(collector.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);

    const resources = collector.resources();
    expect(
      resources.every((r) =>
        r.resource.attributes.some((a) => a.key === 'service.name' && a.value.stringValue === 'lp-tracing-test'),
      ),
    ).toBe(true);
    const ours = collector.spans().filter((span) => span.traceId.toLowerCase() === traceId);
    const server = ours.find(isServer);
    expect(server, JSON.stringify(ours.map((s) => [s.scope, s.name]))).toBeDefined();
    expect(attribute(server!, 'http.response.status_code') ?? attribute(server!, 'http.status_code')).toEqual({
      intValue: expect.anything(),
    });
    expect(server!.parentSpanId).toBe('00f067aa0ba902b7');
    const graphql = ours
      .filter((span) => span.scope === '@opentelemetry/instrumentation-graphql')
      .map((span) => span.name);
    expect(graphql).toEqual(expect.arrayContaining(['graphql.parse', 'graphql.validate']));
    expect(graphql.some((name) => name.startsWith('query TracedProbe'))).toBe(true);
    expect(
      ours.some(
        (span) =>
          span.scope === '@opentelemetry/instrumentation-pg' &&
          (attribute(span, 'db.system.name') ?? attribute(span, 'db.system'))?.stringValue === 'postgresql',
      ),
    ).toBe(true);
  }, 120_000);

  it('exports a sign-up, a log-in and `me` with nothing that was signed up with, and nothing while the service idles', async () => {
    const collector = await startCollector();
    const smtp = await startSmtpServer();
    // Pollers that run often: an idle service that traced them would export spans within the quiet seconds below.
    const service = await startTracedService(collector.url, {
      SMTP_URL: smtp.url,
      JOBS_PROCESS_EVERY_MS: '200',
      OUTBOX_SWEEP_MS: '200',
    });
    const unique = randomUUID().slice(0, 8);
    const email = `tracy-${unique}@example.com`;
    const password = `quiet ${unique} passphrase`;
    const displayName = `Tracy Tran${unique}`;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(service.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

    const signedUp = await json(
      await post('/auth/signup', { email, password, displayName, role: 'guardian', country: 'VN', locale: 'en' }),
    );
    const token = tokenFrom(await smtp.waitFor(email, /confirm/i, 15_000));
    await json(await post('/auth/verify-email', { token }));
    // The log-in as the least careful client writes it: the address and password inline in the document.
    const loggedIn = await json(
      await post('/graphql', {
        query: `mutation { login(input: { email: "${email}", password: "${password}" }) { accessToken refreshToken } }`,
      }),
    );
    const accessToken: string = loggedIn.data.login.accessToken;
    // `me` asked by GET, the address in the URL (as an unused variable): the query string is not traced.
    const me = await json(
      await fetch(
        `${service.base}/graphql?query=${encodeURIComponent('query Me { me { email displayName } }')}&variables=${encodeURIComponent(JSON.stringify({ probe: email }))}`,
        {
          headers: { authorization: `Bearer ${accessToken}`, 'apollo-require-preflight': 'true' },
        },
      ),
    );
    expect(me.data.me).toEqual({ email, displayName });
    // A path that holds a code: the span has the route's template, not the path.
    const code = `CODE-${unique}`;
    expect((await fetch(`${service.base}/certificates/verify/${code}`)).status).toBe(404);
    // Over the WebSocket, which no HTTP request carries: the operation starts a trace of its own.
    const socket = connect(service.base, accessToken);
    expect(await operate(socket, 'query MeOverSocket { me { email } }')).toEqual({ data: { me: { email } } });
    await socket.dispose();

    // Quiet seconds: the job queue and the outbox poll several times in them.
    await sleep(1000);
    const quietFrom = BigInt(Date.now()) * 1_000_000n;
    await sleep(3000);
    const quietTo = BigInt(Date.now()) * 1_000_000n;
    await service.stop();
    await collector.close();
    await smtp.close();

    const exported = Buffer.concat(collector.bodies).toString('utf8');
    const secrets = {
      email,
      password,
      displayName,
      hash: '$argon2',
      token,
      code,
      accessToken,
      refreshToken: signedUp.refreshToken,
      loginRefreshToken: loggedIn.data.login.refreshToken,
    };
    for (const [what, secret] of Object.entries(secrets))
      expect(exported.includes(secret), `the ${what} is in the exported spans`).toBe(false);

    const spans = collector.spans();
    const names = JSON.stringify(spans.map((s) => [s.scope, s.name]));
    // Spans still arrive: the server's, named by the route template, and SQL with placeholders.
    const signup = spans.find(
      (span) => isServer(span) && attribute(span, 'http.route')?.stringValue === '/auth/signup',
    );
    expect(signup?.name, names).toBe('POST /auth/signup');
    const get = spans.find((span) => isServer(span) && span.name.startsWith('GET'));
    expect(get && { name: get.name, route: attribute(get, 'http.route')?.stringValue }, names).toEqual({
      name: 'GET /graphql',
      route: '/graphql',
    });
    expect(spans.find((span) => isServer(span) && span.name.startsWith('GET /certificates'))?.name, names).toBe(
      'GET /certificates/verify/:code',
    );
    const overSocket = spans.find((span) => span.name === 'query MeOverSocket');
    expect(
      overSocket && spans.some((span) => span.traceId === overSocket.traceId && span.name === 'graphql.resolve me'),
      names,
    ).toBe(true);
    const statements = spans.flatMap((span) => statementOf(span) ?? []);
    expect(
      statements.some((sql) => /insert into "users" .*\$1/i.test(sql)),
      JSON.stringify(statements),
    ).toBe(true);
    expect(
      statements.some((sql) => /where .*"email" = \$1/i.test(sql)),
      JSON.stringify(statements),
    ).toBe(true);
    // Nothing while idle: no span of the pollers started in the quiet seconds.
    const quiet = spans.filter(
      (span) => BigInt(span.startTimeUnixNano) >= quietFrom && BigInt(span.startTimeUnixNano) <= quietTo,
    );
    expect(quiet.map((span) => `${span.scope} ${span.name} ${statementOf(span) ?? ''}`)).toEqual([]);
  }, 120_000);

  it('loads no part of the SDK when no endpoint is set', () => {
    const probe = `require(${JSON.stringify(join(dist, 'server', 'tracing.js'))}); console.log(Object.keys(require.cache).filter((f) => f.includes('@opentelemetry')).length)`;
    const loaded = (env: Record<string, string>) =>
      Number(
        execFileSync(process.execPath, ['-e', probe], { env: { PATH: process.env.PATH, ...env } })
          .toString()
          .trim(),
      );
    expect(loaded({})).toBe(0);
    expect(loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBeGreaterThan(0);
  });
});
