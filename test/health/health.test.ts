import { makeDataDir } from '../support/data-dir';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../src/db/embedded';
import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/ports';
import { startSmtpServer } from '../support/smtp';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('GET /health', () => {
  it('reports the database up, down (503) and up again without a restart of the service', async () => {
    const dataDir = makeDataDir('lp-health-pg-');
    const port = await freePort();
    let postgres: EmbeddedPostgres = await startEmbeddedPostgres(dataDir, port);
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const t = await startTestApp({}, postgres.url());
    cleanups.push(
      () => t.close(),
      () => postgres.stop(),
    );

    const up = await t.http.get('/health');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ok', database: 'up', latencyMs: expect.any(Number) });
    expect((await t.http.gql('{ health { status database } }')).body.data).toEqual({ health: { status: 'ok', database: 'up' } });

    await postgres.stop();
    const down = await t.http.get('/health');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ error: 'upstream_unavailable', message: 'The database cannot be reached.' });
    const gql = await t.http.gql('{ health { status } }');
    expect(gql.body.errors?.[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(JSON.stringify(gql.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);

    postgres = await startEmbeddedPostgres(dataDir, port);
    await expect.poll(async () => (await t.http.get('/health')).status, { timeout: 10_000, interval: 200 }).toBe(200);
  });
});

describe('GET /health/email', () => {
  let t: TestApp;

  it('reports a working SMTP server', async () => {
    const smtp = await startSmtpServer();
    cleanups.push(() => smtp.close());
    t = await startTestApp({ SMTP_URL: smtp.url });
    cleanups.push(() => t.close());
    const reply = await t.http.get('/health/email');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', transport: 'smtp' });
    const gql = await t.http.gql('{ emailHealth { status transport } }');
    expect(gql.body.data.emailHealth).toEqual({ status: 'ok', transport: 'smtp' });
  });

  it('answers 503 when the SMTP server cannot be reached', async () => {
    const closed = await freePort();
    const app = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${closed}` }, t.databaseUrl);
    cleanups.push(() => app.close());
    const reply = await app.http.get('/health/email');
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ error: 'upstream_unavailable', message: 'The SMTP server is not working.' });
  });

  it('reports the file outbox when no SMTP server is set', async () => {
    const app = await startTestApp({}, t.databaseUrl);
    cleanups.push(() => app.close());
    const reply = await app.http.get('/health/email');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', transport: 'file' });
  });
});
