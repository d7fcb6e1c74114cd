import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { ownerOf } from '../support/regions';
import { asOwner } from '../support/sql';
import { learnerOfAge, signInAdmin } from '../support/users';
import { connect, operate, subscribe } from '../support/ws';

/** A caller on another machine, as the trusted proxy (TRUST_PROXY=1) reports it. */
const REMOTE = { 'x-forwarded-for': '203.0.113.9' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: '1' });
});
afterAll(() => t?.close());

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${t.url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one series (`name{label="v",...}` with exactly these labels), or undefined when absent. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '')
      .split(/,(?=\w+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (have === wanted) return Number(match[3]);
  }
  return undefined;
}

/** Whether a program is on PATH. */
function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));
}

/**
 * The findings of promtool's `check metrics` lint (Prometheus's promlint) that our metrics could
 * meet, in its words: where promtool is not installed (CI), the same rules are checked here.
 */
function lintFindings(text: string): string[] {
  const families = new Map<string, { help?: string; type?: string }>();
  const findings: string[] = [];
  for (const line of text.split('\n')) {
    const declared = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (!declared) continue;
    const [, kind, name, value] = declared;
    const family = families.get(name) ?? {};
    const field = kind === 'HELP' ? 'help' : 'type';
    if (family[field] !== undefined) findings.push(`${name}: second ${kind} line`);
    family[field] = value;
    families.set(name, family);
  }
  for (const [name, { help, type }] of families) {
    if (!help) findings.push(`${name}: no help text`);
    if (type === 'counter' && !name.endsWith('_total'))
      findings.push(`${name}: counter metrics should have "_total" suffix`);
    if (type !== 'counter' && name.endsWith('_total'))
      findings.push(`${name}: non-counter metrics should not have "_total" suffix`);
    if (type !== 'histogram' && type !== 'summary' && /_(bucket|count|sum)$/.test(name))
      findings.push(`${name}: non-histogram and non-summary metrics should not have a reserved suffix`);
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) findings.push(`${name}: metric names should be written in snake_case`);
  }
  return findings;
}

describe('GET /metrics', () => {
  it('counts HTTP requests under their route template and status, never the raw path', async () => {
    const route = { method: 'GET', route: '/courses/:id', status: '404' };
    const before = valueOf(await scrape(), 'http_request_duration_seconds_count', route) ?? 0;
    const id = '0b7f3c1e-3c55-4a5e-9d56-1f8a2b6c9d01';
    expect((await t.http.get(`/courses/${id}`)).status).toBe(404);
    expect((await t.http.get(`/courses/${id}`)).status).toBe(404);
    const text = await scrape();
    expect(valueOf(text, 'http_request_duration_seconds_count', route)).toBe(before + 2);
    expect(text).not.toContain(id);
    // A path nothing serves is one series, whatever the path.
    expect((await t.http.get('/no/such/path/42')).status).toBe(404);
    const after = await scrape();
    expect(
      valueOf(after, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('/no/such/path');
    // Routes express serves carry their template too.
    expect(
      valueOf(after, 'http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status: '200' }),
    ).toBeGreaterThanOrEqual(2);
    // GraphQL asked by GET goes through express (the explorer's route passes it on to /graphql's): one route still.
    const graphqlByGet = { method: 'GET', route: '/graphql', status: '200' };
    const asked = await fetch(`${t.url}/graphql?query=${encodeURIComponent('{ health { status } }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(await asked.json()).toEqual({ data: { health: { status: 'ok' } } });
    const last = await scrape();
    expect(valueOf(last, 'http_request_duration_seconds_count', graphqlByGet)).toBe(
      (valueOf(after, 'http_request_duration_seconds_count', graphqlByGet) ?? 0) + 1,
    );
    expect(last).not.toContain('/graphql/graphql');
  });

  it('passes the lint of promtool check metrics: HELP for each, `_total` for counters and only them, snake_case, no name declared twice', async () => {
    expect(
      lintFindings('# HELP up_total x\n# TYPE up_total gauge\nup_total 1\n# TYPE noHelp counter\nnoHelp 1\n'),
    ).toEqual([
      'up_total: non-counter metrics should not have "_total" suffix',
      'noHelp: no help text',
      'noHelp: counter metrics should have "_total" suffix',
      'noHelp: metric names should be written in snake_case',
    ]);
    expect(lintFindings(await scrape())).toEqual([]);
  });

  it.skipIf(!onPath('promtool'))('passes promtool check metrics with no finding', async () => {
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: await scrape(), encoding: 'utf8' });
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('counts GraphQL operations by type and name, and those that failed', async () => {
    const ok = { operation_type: 'query', operation_name: 'MetricsProbe' };
    const failing = { operation_type: 'mutation', operation_name: 'MetricsLogin' };
    const before = await scrape();
    expect((await t.http.gql('query MetricsProbe { health { status } }')).body.data).toEqual({
      health: { status: 'ok' },
    });
    const login = await t.http.gql(
      'mutation MetricsLogin($input: LoginInput!) { login(input: $input) { accessToken } }',
      {
        input: { email: 'nobody@example.com', password: 'not the password at all' },
      },
    );
    expect(login.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    const after = await scrape();
    expect(valueOf(after, 'graphql_operations_total', ok)).toBe(
      (valueOf(before, 'graphql_operations_total', ok) ?? 0) + 1,
    );
    expect(valueOf(after, 'graphql_operation_errors_total', ok) ?? 0).toBe(
      valueOf(before, 'graphql_operation_errors_total', ok) ?? 0,
    );
    expect(valueOf(after, 'graphql_operations_total', failing)).toBe(
      (valueOf(before, 'graphql_operations_total', failing) ?? 0) + 1,
    );
    expect(valueOf(after, 'graphql_operation_errors_total', failing)).toBe(
      (valueOf(before, 'graphql_operation_errors_total', failing) ?? 0) + 1,
    );
    expect(valueOf(after, 'graphql_operation_duration_seconds_count', ok)).toBeGreaterThanOrEqual(1);
  });

  it('counts GraphQL operations sent over the WebSocket as those sent over HTTP', async () => {
    const learner = await learnerOfAge(t, 15);
    const query = { operation_type: 'query', operation_name: 'MetricsSocketProbe' };
    const subscription = { operation_type: 'subscription', operation_name: 'MetricsSocketFeed' };
    const before = await scrape();
    const client = connect(t.url, learner.accessToken);
    const live = subscribe(client, 'subscription MetricsSocketFeed { unreadCountChanged { count } }');
    await live.ready;
    expect(await operate(client, 'query MetricsSocketProbe { health { status } }')).toEqual({
      data: { health: { status: 'ok' } },
    });
    const refused = await operate(client, 'query MetricsSocketProbe { health { statuss } }');
    expect(refused.errors?.[0].extensions?.code).toBe('VALIDATION_FAILED');
    const after = await scrape();
    await live.close();
    expect(valueOf(after, 'graphql_operations_total', query)).toBe(
      (valueOf(before, 'graphql_operations_total', query) ?? 0) + 1,
    );
    expect(valueOf(after, 'graphql_operation_errors_total', query) ?? 0).toBe(
      valueOf(before, 'graphql_operation_errors_total', query) ?? 0,
    );
    expect(valueOf(after, 'graphql_operations_total', subscription)).toBe(
      (valueOf(before, 'graphql_operations_total', subscription) ?? 0) + 1,
    );
    // A document that does not validate names no operation Apollo resolved: counted, as over HTTP, as unknown and failed.
    const unknown = { operation_type: 'unknown', operation_name: 'unknown' };
    expect(valueOf(after, 'graphql_operation_errors_total', unknown)).toBe(
      (valueOf(before, 'graphql_operation_errors_total', unknown) ?? 0) + 1,
    );
  });

  it('reports the job queue and the outbox lag as stored', async () => {
    // Three jobs due that no instance defines (none takes them), an outbox row due in an hour but
    // written ten minutes ago (the relay leaves it), and one set aside as failed.
    await asOwner(
      t,
      `insert into agenda_jobs (name, next_run_at) select 'metrics-probe', now() - interval '1 minute' from generate_series(1, 3)`,
    );
    // A job another instance holds: locked, and not to run here.
    await asOwner(
      t,
      `insert into agenda_jobs (name, next_run_at, locked_at) values ('metrics-probe-held', now() + interval '1 hour', now())`,
    );
    await asOwner(
      t,
      `insert into outbox (kind, name, payload, available_at, created_at) values ('job', 'metrics-probe', '{}', now() + interval '1 hour', now() - interval '10 minutes')`,
    );
    await asOwner(
      t,
      `insert into outbox (kind, name, payload, failed_at) values ('job', 'metrics-probe', '{}', now())`,
    );
    // Region vn's outbox is in vn's database: a row set aside there is counted under its region only.
    const vn = ownerOf(t, 'vn');
    const vnFailedBefore = valueOf(await scrape(), 'outbox_rows', { region: 'vn', state: 'failed' });
    await asOwner(
      vn,
      `insert into outbox (kind, name, payload, failed_at) values ('job', 'metrics-probe', '{}', now())`,
    );
    const text = await scrape();
    const inGlobal = { region: 'global' };
    expect(valueOf(text, 'job_queue', { ...inGlobal, state: 'due' })).toBeGreaterThanOrEqual(3);
    expect(valueOf(text, 'job_queue', { ...inGlobal, state: 'running' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'outbox_rows', { ...inGlobal, state: 'pending' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'outbox_rows', { ...inGlobal, state: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'outbox_oldest_pending_age_seconds', inGlobal)).toBeGreaterThanOrEqual(600);
    expect(valueOf(text, 'outbox_rows', { region: 'vn', state: 'failed' })).toBe(vnFailedBefore! + 1);
    expect(valueOf(text, 'job_queue', { region: 'vn', state: 'due' })).toEqual(expect.any(Number));
    await asOwner(t, `delete from agenda_jobs where name = 'metrics-probe'`);
    await asOwner(t, `delete from outbox where name = 'metrics-probe'`);
    await asOwner(vn, `delete from outbox where name = 'metrics-probe'`);
    const cleared = await scrape();
    expect(valueOf(cleared, 'outbox_oldest_pending_age_seconds', inGlobal)).toBeLessThan(600);
    expect(valueOf(cleared, 'outbox_rows', { ...inGlobal, state: 'failed' })).toBe(0);
    expect(valueOf(cleared, 'outbox_rows', { region: 'vn', state: 'failed' })).toBe(vnFailedBefore);
  });

  it('reports the database pools, the WebSockets, the CodeLab pools, the sign-in caches and the process', async () => {
    const learner = await learnerOfAge(t, 15);
    // The learner's token passed and their account was read: both are kept.
    expect(
      (await fetch(`${t.url}/auth/me`, { headers: { authorization: `Bearer ${learner.accessToken}` } })).status,
    ).toBe(200);
    const client = connect(t.url, learner.accessToken);
    const live = subscribe(client, 'subscription { notificationAdded { id } }');
    await live.ready;
    const text = await scrape();
    await live.close();
    expect(valueOf(text, 'websocket_connections')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'graphql_subscriptions')).toBeGreaterThanOrEqual(1);
    for (const pool of ['orm', 'plain_sql', 'jobs']) {
      const open =
        (valueOf(text, 'db_pool_connections', { pool, state: 'used' }) ?? -1) +
        (valueOf(text, 'db_pool_connections', { pool, state: 'idle' }) ?? -1);
      expect(open, pool).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'db_pool_connections', { pool, state: 'waiting' }), pool).toBe(0);
    }
    for (const language of ['python', 'javascript']) {
      expect(valueOf(text, 'codelab_workers', { language, state: 'busy' }), language).toBe(0);
      expect(Number.isInteger(valueOf(text, 'codelab_workers', { language, state: 'idle' })), language).toBe(true);
      expect(valueOf(text, 'codelab_queued_runs', { language }), language).toBe(0);
    }
    expect(valueOf(text, 'auth_cache_entries', { cache: 'access_tokens' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'auth_cache_entries', { cache: 'accounts' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    await expect.poll(async () => valueOf(await scrape(), 'graphql_subscriptions'), { timeout: 10_000 }).toBe(0);
  });

  it('answers a caller on another machine only when an admin signs in', async () => {
    const anonymous = await t.http.get('/metrics', { headers: REMOTE });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'unauthenticated', message: expect.any(String) });

    const learner = await learnerOfAge(t, 16);
    const notAdmin = await t.http.get('/metrics', { headers: REMOTE, token: learner.accessToken });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body).toEqual({ error: 'forbidden', message: expect.any(String) });

    const badToken = await t.http.get('/metrics', { headers: REMOTE, token: 'not.a.token' });
    expect(badToken.status).toBe(401);
    expect(badToken.body.error).toBe('unauthenticated');

    const admin = await signInAdmin(t);
    const text = await scrape({ ...REMOTE, authorization: `Bearer ${admin.accessToken}` });
    expect(text).toMatch(/^websocket_connections \d+$/m);
    // A request relayed by a proxy is not local, whatever address the proxy reports: a proxy on this
    // machine serves clients from anywhere, and a client writes the entries it likes.
    for (const relayed of ['127.0.0.1', '::1', '127.0.0.1, 203.0.113.9']) {
      const refused = await t.http.get('/metrics', { headers: { 'x-forwarded-for': relayed } });
      expect(refused.status, relayed).toBe(401);
    }
    // Straight from this machine, no proxy in between, no token is needed.
    await scrape();
  });
});
