import express from 'express';
import { Pool } from 'pg';
import { routes } from '../../src/server/platform';
import { authenticateHeader } from '../../src/kernel/tokens';
import { run, serveUntilTold, startBenchService } from '../support';
import { accountOfRow } from './account-row';
import { bareApollo } from './bare-apollo';

/**
 * Runs in a child process of run.ts: the service (on a fresh embedded PostgreSQL, or DATABASE_URL)
 * and the baselines: a bare express handler that checks the same JWT and runs the same SQL with pg,
 * and Apollo Server alone answering the same query from that SQL (bare-apollo.ts).
 */
run(async () => {
  const service = await startBenchService();
  const { config, databaseUrl, services } = service;

  const email = `bench-${Date.now()}@example.com`;
  const session = await services.homeRegion.signup({
    email,
    password: 'a benchmark password',
    displayName: 'Bench',
    role: 'guardian' as never,
    country: 'VN',
  });

  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const baseline = express();
  baseline.get('/me', async (req, res) => {
    // The service's own verifier (jsonwebtoken given the secret as a string first tries it as a public key).
    const { userId } = authenticateHeader(config, req.headers.authorization);
    const { rows } = await pool.query('select u0.* from users as u0 where u0.id = $1 limit 1', [userId]);
    res.json({ user: accountOfRow(rows[0]) });
  });
  const baselineServer = baseline.listen(0, '127.0.0.1');
  await new Promise((resolve) => baselineServer.once('listening', resolve));
  const baselinePort = (baselineServer.address() as { port: number }).port;

  const apolloServer = await bareApollo(config, pool);
  const apolloPort = (apolloServer.address() as { port: number }).port;

  // The GraphQL twin sends the REST row's own document, so both answer the same fields.
  const me = routes.find((r) => r.method === 'get' && r.path === '/auth/me')!.operation;
  serveUntilTold(
    {
      service: service.url,
      baseline: `http://127.0.0.1:${baselinePort}`,
      apollo: `http://127.0.0.1:${apolloPort}/graphql`,
      token: session.accessToken,
      me,
    },
    async () => {
      baselineServer.close();
      apolloServer.close();
      await pool.end();
      await service.stop();
    },
  );
});
