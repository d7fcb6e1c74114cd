import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { Role } from '../../src/auth/user.entity';
import { ConsentType } from '../../src/consent/consent.entity';
import { authenticateHeader, signAccessToken } from '../../src/kernel/tokens';
import { type Config, loadConfig } from '../../src/config';
import { run, serveUntilTold, startBenchService } from '../support';
import { openUnit } from '../../src/server/platform';

const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 200);

/**
 * The bare baseline: a pass-through proxy with only the JWT check (the service's own verifier),
 * forwarding the body to the backend over a keep-alive undici pool and the answer back as it comes.
 */
function startBareProxy(config: Config, backend: string): Promise<{ url: string; close(): void }> {
  const agent = new Agent({ connections: 512, keepAliveTimeout: 30_000 });
  const server = createServer((req, res) => {
    const auth = authenticateHeader(config, req.headers.authorization);
    if (!auth.userId) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"unauthenticated","message":"Sign in first."}');
      return;
    }
    const headers = {
      'content-type': 'application/json',
      accept: req.headers.accept ?? 'application/json',
      'x-ai-user-id': auth.userId,
    };
    request(`${backend}/chat`, { method: 'POST', headers, body: req, dispatcher: agent }).then(
      (upstream) => {
        res.writeHead(upstream.statusCode, {
          'content-type': String(upstream.headers['content-type'] ?? 'application/json'),
        });
        upstream.body.pipe(res);
      },
      () => res.writeHead(503).end(),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.close();
          void agent.close();
        },
      }),
    ),
  );
}

/**
 * The service under measure, in a process of its own, with one learner allowed to chat; with the
 * argument `bare`, the bare proxy alone (another process, so neither's backlog slows the other).
 */
run(async () => {
  if (process.argv[2] === 'bare') {
    const bare = await startBareProxy(
      loadConfig({ ...process.env, DATABASE_URL: 'postgres://unused/unused' }),
      process.env.AI_BACKEND_URL!,
    );
    serveUntilTold({ url: bare.url }, async () => bare.close());
    return;
  }
  const service = await startBenchService({ AI_QUOTA_FREE: '100000000' });
  const session = await service.services.homeRegion.signup({
    email: `bench-${Date.now()}@example.com`,
    password: 'a benchmark password',
    displayName: 'Bench',
    role: Role.learner,
    birthDate: '1990-01-01',
    country: 'VN',
  });
  // The learner's home is vn: its consent, its copies and their tokens belong to vn's database.
  const home = service.app.deps.inRegion(session.user.region);
  await openUnit(home).services.consent.grant(session.user, ConsentType.ai_conversation);
  // More learners like this one (BENCH_LEARNERS in all), copied in SQL: each connection chats as one of them.
  const sql = (query: string, params: unknown[]) =>
    home.orm.em.getConnection().execute<{ id: string }[]>(query, params);
  const copies = await sql(
    `insert into users select (jsonb_populate_record(null::users, to_jsonb(u) || jsonb_build_object('id', gen_random_uuid(), 'email', 'bench-ai-' || g || '-' || u.email))).*
     from users u, generate_series(1, ?) g where u.id = ? returning id`,
    [LEARNERS - 1, session.user.id],
  );
  await sql(
    `insert into consents select (jsonb_populate_record(null::consents, to_jsonb(c) || jsonb_build_object('id', gen_random_uuid(), 'subject_id', u.id))).*
     from consents c, users u where c.subject_id = ? and u.email like 'bench-ai-%'`,
    [session.user.id],
  );
  const tokens = [
    session.accessToken,
    ...copies.map(({ id }) => signAccessToken(service.config, { sub: id, roles: [Role.learner], region: home.region })),
  ];
  serveUntilTold({ url: service.url, tokens }, service.stop);
});
