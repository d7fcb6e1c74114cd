import '../production';
import { Agent } from 'undici';
import { Role } from '../../src/auth/user.entity';
import { GLOBAL_REGION } from '../../src/db/regions';
import type { Deps } from '../../src/kernel/deps';
import { signAccessToken } from '../../src/kernel/tokens';
import { jsonCaller, loadPages, run, startBenchService } from '../support';
import { DASHBOARD } from '../dashboard/query';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LEARNERS = 3;
const COURSES = 10;
/** The share of global's throughput a regional account keeps (measured in the same run). */
const AIM = 0.95;

/** A guardian with learners enrolled in every course and part-way through them, in the region's own database. */
async function family(deps: Deps, country: string): Promise<string> {
  const { auth, guardian } = deps.unit().services;
  const parent = await auth.createVerifiedUser(
    `bench-${deps.region}-${Date.now()}@example.com`,
    'a benchmark password',
    'Bench Parent',
    Role.guardian,
    { country },
  );
  const sql = (text: string, params: unknown[] = []) => deps.orm.em.getConnection().execute(text, params);
  for (let i = 0; i < LEARNERS; i++) {
    const link = await guardian.addChild(parent, { displayName: `Child ${i}`, birthDate: '2014-01-01' });
    await sql(
      `insert into enrollments (id, learner_id, course_id, created_at) select gen_random_uuid(), ?, id, now() from courses`,
      [link.learner!.id],
    );
    await sql(
      `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at)
       select gen_random_uuid(), ?, id, course_id, 120, now() from lessons where position <= 2`,
      [link.learner!.id],
    );
  }
  await sql('analyze');
  return signAccessToken(deps.config, { sub: parent.id, roles: [Role.guardian], region: deps.region });
}

/**
 * `npm run bench:residency`: what routing a request to its account's home region costs. A guardian
 * whose home is vn and one whose home is global, each with learners enrolled in the same courses
 * (written in global's database and copied to vn's by replication), load `GET /auth/me` and the
 * dashboard's GraphQL query in turns, in the same run; vn's throughput is given as a share of global's.
 */
run(async () => {
  const service = await startBenchService();
  const global = service.app.deps.inRegion(GLOBAL_REGION);
  const vn = global.inRegion('vn');
  const globalSql = (text: string, params: unknown[] = []) => global.orm.em.getConnection().execute(text, params);
  await globalSql(
    `insert into courses (id, title, description, level, min_age, max_age, language, pass_mark, published, created_at, updated_at)
     select gen_random_uuid(), jsonb_build_object('en', 'Course ' || g, 'vi', 'Khóa học ' || g), '{"en":"About loops","vi":"Về vòng lặp"}',
       'beginner', 8, 14, 'vi', 70, true, now() - (g || ' seconds')::interval, now() from generate_series(1, ?) g`,
    [COURSES],
  );
  await globalSql(`insert into lessons (id, course_id, position, title, objectives, content, quiz)
     select gen_random_uuid(), c.id, p, '{"en":"L","vi":"B"}', '{"en":[],"vi":[]}', '{"en":"C","vi":"N"}', null from courses c cross join generate_series(1, 5) p`);
  const copied = Date.now();
  while ((await vn.sql.unlogged<{ n: number }>('select count(*)::int as n from lessons', []))[0].n < COURSES * 5) {
    if (Date.now() - copied > 60_000) throw new Error('the courses did not reach vn within a minute');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(`\nreplication: ${COURSES} courses and ${COURSES * 5} lessons reached vn in ${Date.now() - copied} ms`);
  const tokens = { global: await family(global, 'DE'), vn: await family(vn, 'VN') };

  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });
  const call = jsonCaller(service.url, agent);
  const targets = {
    'GET /auth/me': (token: string) => call(token, '/auth/me'),
    'dashboard (GraphQL)': (token: string) => call(token, '/graphql', JSON.stringify({ query: DASHBOARD })),
  };
  for (const token of Object.values(tokens)) {
    const board = (await targets['dashboard (GraphQL)'](token)) as {
      data: { viewer: { linkedLearners: { nodes: { enrollments: { nodes: unknown[] } }[] } } };
    };
    const learners = board.data.viewer.linkedLearners.nodes;
    if (learners.length !== LEARNERS || learners.some((l) => l.enrollments.nodes.length !== COURSES))
      throw new Error('a dashboard is incomplete');
  }

  console.log(
    `${CLIENTS} clients, ${DURATION} s per measure, ${ROUNDS} rounds taken in turns, Node ${process.version}`,
  );
  console.log('target                 region   req/s (each round)            p50 ms');
  let met = true;
  for (const [name, page] of Object.entries(targets)) {
    const rates: Record<string, number[]> = { global: [], vn: [] };
    const medians: Record<string, number[]> = { global: [], vn: [] };
    for (let round = 0; round < ROUNDS; round++)
      for (const [region, token] of Object.entries(tokens)) {
        const figures = await loadPages(() => page(token), CLIENTS, DURATION);
        rates[region].push(figures.perSecond);
        medians[region].push(figures.p50);
      }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    for (const region of ['global', 'vn'])
      console.log(
        `${name.padEnd(22)} ${region.padEnd(8)} ${rates[region].map((rate) => rate.toFixed(0).padStart(7)).join('')}   mean ${mean(rates[region]).toFixed(0).padStart(6)}   ${mean(medians[region]).toFixed(2).padStart(7)}`,
      );
    const share = mean(rates.vn) / mean(rates.global);
    met &&= share >= AIM;
    console.log(`${name}: vn at ${(share * 100).toFixed(1)}% of global (aim ${AIM * 100}% or more)`);
  }
  await agent.close();
  await service.stop();
  process.exit(met ? 0 : 1);
});
