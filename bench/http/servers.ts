import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import jwt from 'jsonwebtoken';
import { Pool } from 'pg';
import { loadConfig } from '../../src/config';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { createLogger } from '../../src/logger';
import { createApp } from '../../src/server/app';
import { createServices } from '../../src/services';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs in a child process of run.ts: the service (on a fresh embedded PostgreSQL, or DATABASE_URL)
 * and the baseline, a bare express handler that checks the same JWT and runs the same SQL with pg.
 */
async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'lp-bench-'));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(dataDir, 54400 + Math.floor(Math.random() * 500));
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url();
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DEFAULT: '100000000',
    RATE_LIMIT_AUTH: '100000000',
  });
  const app = await createApp(config, createLogger('silent'));
  const service = await app.listen(0, '127.0.0.1');

  const email = `bench-${Date.now()}@example.com`;
  const services = createServices(app.deps.orm.em.fork() as EntityManager, app.deps);
  const session = await services.auth.signup({ email, password: 'a benchmark password', displayName: 'Bench', role: 'guardian' as never, country: 'VN' });

  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const baseline = express();
  baseline.get('/me', async (req, res) => {
    const token = (req.headers.authorization ?? '').slice('Bearer '.length);
    const claims = jwt.verify(token, config.JWT_SECRET, { algorithms: ['HS256'], issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE }) as { sub: string };
    const { rows } = await pool.query('select u0.* from users as u0 where u0.id = $1 limit 1', [claims.sub]);
    const u = rows[0];
    res.json({ user: { id: u.id, email: u.email, emailVerified: u.email_verified_at !== null, displayName: u.display_name, roles: u.roles, birthDate: u.birth_date, country: u.country, locale: u.locale, tier: u.tier, status: u.status, createdAt: u.created_at } });
  });
  const baselineServer = baseline.listen(0, '127.0.0.1');
  await new Promise((resolve) => baselineServer.once('listening', resolve));
  const baselinePort = (baselineServer.address() as { port: number }).port;

  process.send!({ service: `http://127.0.0.1:${service.port}`, baseline: `http://127.0.0.1:${baselinePort}`, token: session.accessToken });
  process.on('message', async () => {
    baselineServer.close();
    await pool.end();
    await app.close();
    await embedded?.stop();
    process.exit(0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
