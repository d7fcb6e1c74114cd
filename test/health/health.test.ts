import { makeDataDir } from '../support/data-dir';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect((await t.http.gql('{ health { status database } }')).body.data).toEqual({
      health: { status: 'ok', database: 'up' },
    });

    await postgres.stop();
    const down = await t.http.get('/health');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      error: 'upstream_unavailable',
      reason: 'database_unavailable',
      message: 'The database cannot be reached.',
    });
    const gql = await t.http.gql('{ health { status } }');
    expect(gql.body.errors?.[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(JSON.stringify(gql.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);

    // The process still answers: an orchestrator must take it out of rotation (ready), not restart it (live).
    const live = await t.http.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const notReady = await t.http.get('/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toEqual({
      error: 'upstream_unavailable',
      reason: 'database_unavailable',
      message: 'The database cannot be reached.',
    });
    const notReadyGql = await t.http.gql('{ readiness { status } }');
    expect(notReadyGql.body.errors?.[0].extensions.code).toBe('UPSTREAM_UNAVAILABLE');
    expect((await t.http.gql('{ liveness { status } }')).body.data).toEqual({ liveness: { status: 'ok' } });

    postgres = await startEmbeddedPostgres(dataDir, port);
    await expect.poll(async () => (await t.http.get('/health')).status, { timeout: 10_000, interval: 200 }).toBe(200);
    await expect
      .poll(async () => (await t.http.get('/health/ready')).status, { timeout: 10_000, interval: 200 })
      .toBe(200);
    // Each answer while the database is down waits out its connection timeout.
  }, 60_000);
});

describe('GET /health/live and /health/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    cleanups.push(() => t.close());
  });

  it('answers live and ready on a started service, in REST and GraphQL', async () => {
    const live = await t.http.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect((await t.http.gql('{ liveness { status } }')).body.data).toEqual({ liveness: { status: 'ok' } });

    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(200);
    const expected = { status: 'ok', database: 'up', migrations: 'applied', outboxRelay: 'running' };
    expect(ready.body).toEqual(expected);
    expect((await t.http.gql('{ readiness { status database migrations outboxRelay } }')).body.data).toEqual({
      readiness: expected,
    });
  });

  it('is not ready while a migration of this build is missing from the database', async () => {
    const connection = t.app.deps.orm.em.getConnection();
    const [last] = await connection.execute<{ id: number; name: string; executed_at: Date }[]>(
      'select id, name, executed_at from mikro_orm_migrations order by id desc limit 1',
    );
    await connection.execute('delete from mikro_orm_migrations where id = ?', [last.id]);
    try {
      const reply = await t.http.get('/health/ready');
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({
        error: 'upstream_unavailable',
        reason: 'migrations_pending',
        message: 'Not ready: 1 database migration is not applied.',
      });
      const gql = await t.http.gql('{ readiness { status } }');
      expect(gql.body.errors?.[0]).toMatchObject({
        message: 'Not ready: 1 database migration is not applied.',
        extensions: { code: 'UPSTREAM_UNAVAILABLE' },
      });
      expect((await t.http.get('/health/live')).status).toBe(200);
    } finally {
      await connection.execute('insert into mikro_orm_migrations (id, name, executed_at) values (?, ?, ?)', [
        last.id,
        last.name,
        last.executed_at,
      ]);
    }
    expect((await t.http.get('/health/ready')).status).toBe(200);
  });

  it('is not ready once its outbox relay has stopped', async () => {
    await t.app.relay.stop();
    const reply = await t.http.get('/health/ready');
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({
      error: 'upstream_unavailable',
      reason: 'outbox_relay_stopped',
      message: 'Not ready: the outbox relay is not running.',
    });
    const gql = await t.http.gql('{ readiness { status } }');
    expect(gql.body.errors?.[0]).toMatchObject({
      message: 'Not ready: the outbox relay is not running.',
      extensions: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    expect((await t.http.get('/health/live')).status).toBe(200);
    t.app.relay.start();
    expect((await t.http.get('/health/ready')).status).toBe(200);
  });
});

describe('an instance that is stopping', () => {
  it('says it is not ready from the moment it begins to stop, while it still answers', async () => {
    const t = await startTestApp();
    expect((await t.http.get('/health/ready')).status).toBe(200);
    t.app.deps.leaving = true;
    const reply = await t.http.get('/health/ready');
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({
      error: 'upstream_unavailable',
      reason: 'instance_stopping',
      message: 'Not ready: this instance is stopping.',
    });
    expect((await t.http.get('/health/live')).status).toBe(200);
    t.app.deps.leaving = false;
    const closing = t.close();
    expect(t.app.deps.leaving).toBe(true);
    await closing;
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
    expect(reply.body).toEqual({
      error: 'upstream_unavailable',
      reason: 'mail_transport_down',
      message: 'The SMTP server is not working.',
    });
  });

  it('reports the file outbox when no SMTP server is set', async () => {
    const app = await startTestApp({}, t.databaseUrl);
    cleanups.push(() => app.close());
    const reply = await app.http.get('/health/email');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok', transport: 'file' });
  });
});
