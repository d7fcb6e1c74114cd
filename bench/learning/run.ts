import '../production';
import { isDeepStrictEqual } from 'node:util';
import type { AddressInfo } from 'node:net';
import { Role } from '../../src/auth/user.entity';
import { signAccessToken } from '../../src/kernel/tokens';
import { parse } from 'graphql';
import { enumSpelling } from '../../rest/enums';
import { routes } from '../../src/server/platform';
import { buildAppSchema } from '../../src/server/schema';
import { type LoadFigures, loadFromChild, run, startBenchService } from '../support';
import { learningBaseline } from './baseline';

const COURSES = Number(process.env.BENCH_COURSES ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Times only the targets whose name matches (for a profile of one: `BENCH_TARGETS=GraphQL.courses node --cpu-prof ...`). */
const ONLY = new RegExp(process.env.BENCH_TARGETS ?? '');

interface Target {
  name: string;
  /** Targets of one group are compared with the group's baseline. */
  group?: 'catalog' | 'dashboard';
  baseline?: boolean;
  url: string;
  body?: string;
}

/**
 * The catalog over 10,000 published courses (its first page of 20, REST and its GraphQL twin), and
 * the guardian dashboard for 5 learners with 20 courses each (5 lessons and quizzes per course), each
 * against a bare express + pg handler that checks the same JWT, sends the same SQL and writes the
 * same JSON (compared before timing), in alternating rounds; with the SQL statements per request.
 * The load generator runs in a process of its own, so this one's CPU time per request is the
 * serving's alone: the figure to compare when the machine is busy (requests per second move more).
 */
run(async () => {
  const service = await startBenchService();
  const sql = (query: string, params: unknown[] = []) => service.app.deps.orm.em.getConnection().execute(query, params);
  await sql(
    `insert into courses (id, title, description, level, min_age, max_age, language, pass_mark, published, created_at, updated_at)
     select gen_random_uuid(), jsonb_build_object('en', 'Course ' || g || ' Python', 'vi', 'Khóa học ' || g), jsonb_build_object('en', 'About loops', 'vi', 'Về vòng lặp'),
       (array['beginner','intermediate','advanced'])[1 + g % 3], 6 + g % 6, 12 + g % 6, (array['vi','en'])[1 + g % 2], 70, true, now() - (g || ' seconds')::interval, now()
     from generate_series(1, ?) g`,
    [COURSES],
  );
  await sql(`insert into lessons (id, course_id, position, title, objectives, content, quiz)
     select gen_random_uuid(), c.id, p, '{"en":"L","vi":"B"}', '{"en":[],"vi":[]}', '{"en":"C","vi":"N"}',
       '{"questions":[{"prompt":{"en":"q","vi":"q"},"options":[{"en":"a","vi":"a"},{"en":"b","vi":"b"}],"answerIndex":1,"explanation":{"en":"e","vi":"e"}}]}'
     from courses c cross join generate_series(1, 5) p`);
  const { auth, guardian } = service.services;
  const parent = await auth.createVerifiedUser(
    `bench-guardian-${Date.now()}@example.com`,
    'a benchmark password',
    'Bench Parent',
    Role.guardian,
  );
  const courses = (await sql('select id from courses order by created_at desc limit 20')) as { id: string }[];
  for (let i = 0; i < 5; i++) {
    const link = await guardian.addChild(parent, { displayName: `Child ${i}`, birthDate: '2014-01-01' });
    const child = link.learner!.id;
    for (const [n, { id }] of courses.entries()) {
      await sql(
        'insert into enrollments (id, learner_id, course_id, created_at) values (gen_random_uuid(), ?, ?, now())',
        [child, id],
      );
      await sql(
        `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) select gen_random_uuid(), ?, l.id, l.course_id, 120, now() from lessons l where l.course_id = ? and l.position <= 3`,
        [child, id],
      );
      await sql(
        `insert into quiz_attempts (id, learner_id, lesson_id, course_id, answers, correct, total, score, created_at) select gen_random_uuid(), ?, l.id, l.course_id, '[1]', 1, 1, 100, now() from lessons l where l.course_id = ? and l.position <= 2`,
        [child, id],
      );
      if (n % 4 === 0)
        await sql(
          `insert into certificates (id, learner_id, course_id, code, average_score, issued_at) values (gen_random_uuid(), ?, ?, ?, 90, now())`,
          [child, id, `L${i}${n}${Date.now()}`],
        );
    }
  }
  await sql('analyze');
  const token = signAccessToken(service.config, { sub: parent.id, roles: [Role.guardian] });

  const bare = learningBaseline(service.config, service.databaseUrl);
  const bareServer = bare.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

  // The GraphQL twins send the REST rows' own documents.
  const operation = (path: string) => routes.find((r) => r.method === 'get' && r.path === path)!.operation;
  const targets: Target[] = [
    { group: 'catalog', name: 'GET /courses (first page)', url: `${service.url}/courses?limit=20` },
    {
      group: 'catalog',
      name: 'GraphQL courses(first: 20)',
      url: `${service.url}/graphql`,
      body: JSON.stringify({ query: operation('/courses'), variables: { first: 20 } }),
    },
    { group: 'catalog', baseline: true, name: 'catalog: bare express + pg', url: `${bareUrl}/courses?limit=20` },
    { name: 'GET /courses?q=&level=&age=', url: `${service.url}/courses?q=Python&level=beginner&age=12&limit=20` },
    { group: 'dashboard', name: 'GET /guardian/dashboard', url: `${service.url}/guardian/dashboard` },
    {
      group: 'dashboard',
      name: 'GraphQL guardianDashboard',
      url: `${service.url}/graphql`,
      body: JSON.stringify({ query: operation('/guardian/dashboard') }),
    },
    { group: 'dashboard', baseline: true, name: 'dashboard: bare express + pg', url: `${bareUrl}/guardian/dashboard` },
  ];
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const schema = await buildAppSchema();
  const send = async (target: Target) => {
    const response = await fetch(target.url, { method: target.body ? 'POST' : 'GET', headers, body: target.body });
    const json = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
    if (response.status !== 200 || json.errors)
      throw new Error(`${target.name}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  // The same data every way, checked before timing.
  for (const group of ['catalog', 'dashboard'] as const) {
    const [rest, graphql, baseline] = await Promise.all(targets.filter((t) => t.group === group).map(send));
    // GraphQL spells enum values in capitals; REST in the specification's words (rest/enums.ts).
    const spelling = enumSpelling(schema, parse(operation(group === 'catalog' ? '/courses' : '/guardian/dashboard')));
    const twin = Object.values(spelling.toRest(graphql.data) as object)[0] as {
      edges?: { node: unknown }[];
      pageInfo?: { hasNextPage: boolean; endCursor: string };
    };
    const shaped =
      group === 'catalog'
        ? {
            items: twin.edges!.map((e) => e.node),
            nextCursor: twin.pageInfo!.hasNextPage ? twin.pageInfo!.endCursor : null,
          }
        : { items: twin };
    const same = (a: unknown, b: unknown) =>
      isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
    if (!same(rest, baseline))
      throw new Error(
        `${group}: the baseline's body differs from REST's:\n${JSON.stringify(baseline).slice(0, 800)}\n${JSON.stringify(rest).slice(0, 800)}`,
      );
    if (!same(rest, shaped)) throw new Error(`${group}: GraphQL's data differs from REST's`);
  }
  // Counted one request at a time, before any load, so that no other request's statements mix in.
  const counts = new Map<Target, number>();
  for (const target of targets)
    if (!target.baseline) counts.set(target, await countQueries(service, () => send(target)));

  const timed = targets.filter((t) => ONLY.test(t.name));
  const results = new Map<Target, LoadFigures[]>();
  for (const target of timed) await load(target, headers, 2); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of timed)
      results.set(target, [...(results.get(target) ?? []), await load(target, headers, DURATION)]);
  }
  const mean = (target: Target) => {
    const runs = results.get(target)!;
    const avg = (key: keyof LoadFigures) => runs.reduce((sum, r) => sum + (r[key] ?? 0), 0) / runs.length;
    return { rps: avg('rps'), p50: avg('p50'), p99: avg('p99'), errors: avg('errors'), cpuMs: avg('cpuMs') };
  };
  console.log(
    `\n${COURSES.toLocaleString('en')} courses; dashboard: 5 learners x 20 courses; ${ROUNDS} rounds x ${DURATION} s, ${CONNECTIONS} connections, Node ${process.version}`,
  );
  console.log('target                               req/s    p50 ms   p99 ms  CPU ms/req  SQL/request');
  for (const target of timed) {
    const f = mean(target);
    console.log(
      `${target.name.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(1).padStart(9)} ${f.p99.toFixed(1).padStart(8)} ${f.cpuMs.toFixed(2).padStart(11)} ${String(counts.get(target) ?? '').padStart(12)}${f.errors ? `  (${f.errors.toFixed(0)} non-2xx)` : ''}`,
    );
  }
  console.log(
    '\nagainst the bare baseline of the same run (req/s; in brackets, the CPU time per request of the baseline over ours)',
  );
  for (const group of ['catalog', 'dashboard'] as const) {
    const of = targets.filter((t) => t.group === group);
    if (!of.every((t) => results.has(t))) continue;
    const [rest, graphql, baseline] = of.map(mean);
    const ratio = (f: typeof rest) =>
      `${((f.rps / baseline.rps) * 100).toFixed(0)}% (${((baseline.cpuMs / f.cpuMs) * 100).toFixed(0)}%)`;
    console.log(`${group.padEnd(10)} REST ${ratio(rest)}, GraphQL ${ratio(graphql)}; aim >= 50%`);
  }
  // The baseline's pool ends with the process: a request the load generator left under way must not meet an ended pool.
  bareServer.close();
  await service.stop();
  process.exit(0);
});

function load(target: Target, headers: Record<string, string>, duration: number): Promise<LoadFigures> {
  return loadFromChild(
    { url: target.url, method: target.body ? 'POST' : 'GET', headers, body: target.body },
    { connections: CONNECTIONS, duration },
  );
}

async function countQueries(
  service: Awaited<ReturnType<typeof startBenchService>>,
  request: () => Promise<unknown>,
): Promise<number> {
  const logger = service.app.deps.orm.config.getLogger();
  const original = logger.logQuery.bind(logger);
  let queries = 0;
  logger.logQuery = () => void queries++;
  try {
    await request();
  } finally {
    logger.logQuery = original;
  }
  return queries;
}
