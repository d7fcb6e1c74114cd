import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/app';
import { freePort } from '../support/ports';

const dist = join(__dirname, '..', '..', 'dist', 'src');
const dataDir = makeDataDir('lp-tracing-');
const running: ChildProcess[] = [];
let databaseUrl: string;

/** A span as OTLP/HTTP JSON carries it. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}
interface Export {
  resourceSpans: { resource: { attributes: Span['attributes'] }; scopeSpans: { scope: { name: string }; spans: Span[] }[] }[];
}

/** The collector: a real HTTP server taking OTLP/HTTP JSON exports, as an OpenTelemetry collector would. */
async function startCollector(): Promise<{ url: string; exports: Export[]; contentTypes: string[]; server: Server }> {
  const exports: Export[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        contentTypes.push(req.headers['content-type'] ?? '');
        exports.push(JSON.parse(body) as Export);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports, contentTypes, server };
}

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value;

describe('tracing', () => {
  it('sends the spans of a GraphQL request (HTTP, GraphQL, SQL) to the OTLP collector, in the caller’s trace', async () => {
    const collector = await startCollector();
    const port = await freePort();
    const child = spawn(process.execPath, [join(dist, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        CODELAB_PREWARM: 'false',
        LOG_FORMAT: 'json',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_SERVICE_NAME: 'lp-tracing-test',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(child);
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await expect.poll(() => output.includes('Listening') || child.exitCode !== null, { timeout: 45_000, interval: 50 }).toBe(true);
    expect(child.exitCode, output).toBeNull();

    // The caller's W3C trace context: the service's spans join its trace.
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ query: 'query TracedProbe { health { status database } }' }),
    });
    expect(await response.json()).toEqual({ data: { health: { status: 'ok', database: 'up' } } });

    // Spans go out in batches: the last batch is sent at shutdown, before the process exits.
    child.kill('SIGTERM');
    await exited;
    collector.server.close();
    expect(output).toContain('"msg":"stopped"');
    expect(collector.contentTypes.length).toBeGreaterThan(0);
    expect(collector.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);

    const resources = collector.exports.flatMap((e) => e.resourceSpans);
    expect(resources.every((r) => r.resource.attributes.some((a) => a.key === 'service.name' && a.value.stringValue === 'lp-tracing-test'))).toBe(true);
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, scope: s.scope.name }))));
    const ours = spans.filter((span) => span.traceId.toLowerCase() === traceId);
    const server = ours.find((span) => span.scope === '@opentelemetry/instrumentation-http' && span.kind === 2);
    expect(server, JSON.stringify(ours.map((s) => [s.scope, s.name]))).toBeDefined();
    expect(attribute(server!, 'http.response.status_code') ?? attribute(server!, 'http.status_code')).toEqual({ intValue: expect.anything() });
    expect(server!.parentSpanId).toBe('00f067aa0ba902b7');
    const graphql = ours.filter((span) => span.scope === '@opentelemetry/instrumentation-graphql').map((span) => span.name);
    expect(graphql).toEqual(expect.arrayContaining(['graphql.parse', 'graphql.validate']));
    expect(graphql.some((name) => name.startsWith('query TracedProbe'))).toBe(true);
    expect(ours.some((span) => span.scope === '@opentelemetry/instrumentation-pg' && (attribute(span, 'db.system.name') ?? attribute(span, 'db.system'))?.stringValue === 'postgresql')).toBe(true);
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
