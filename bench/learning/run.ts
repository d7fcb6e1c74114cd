import autocannon from 'autocannon';
import { Role } from '../../src/auth/user.entity';
import { signAccessToken } from '../../src/kernel/tokens';
import { run, startBenchService } from '../support';

const COURSES = Number(process.env.BENCH_COURSES ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

/**
 * The catalog over 10,000 published courses, and the guardian dashboard for 5 learners with 20
 * courses each (5 lessons and quizzes per course), with the SQL statements each request sends.
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
  const parent = await auth.createVerifiedUser(`bench-guardian-${Date.now()}@example.com`, 'a benchmark password', 'Bench Parent', Role.guardian);
  const courses = (await sql('select id from courses order by created_at desc limit 20')) as { id: string }[];
  for (let i = 0; i < 5; i++) {
    const link = await guardian.addChild(parent, { displayName: `Child ${i}`, birthDate: '2014-01-01' });
    const child = link.learner!.id;
    for (const { id } of courses) {
      await sql('insert into enrollments (id, learner_id, course_id, created_at) values (gen_random_uuid(), ?, ?, now())', [child, id]);
      await sql(
        `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) select gen_random_uuid(), ?, l.id, l.course_id, 120, now() from lessons l where l.course_id = ? and l.position <= 3`,
        [child, id],
      );
      await sql(
        `insert into quiz_attempts (id, learner_id, lesson_id, course_id, answers, correct, total, score, created_at) select gen_random_uuid(), ?, l.id, l.course_id, '[1]', 1, 1, 100, now() from lessons l where l.course_id = ? and l.position <= 2`,
        [child, id],
      );
    }
  }
  await sql('analyze');
  const token = signAccessToken(service.config, { sub: parent.id, roles: [Role.guardian] });
  const dashboard = JSON.stringify({ query: '{ guardianDashboard { learner { id } progress { streakDays courses { percent averageScore timeSpentSeconds } } certificates { code } } }' });
  const targets = [
    { name: 'GET /courses (first page)', path: '/courses?limit=20' },
    { name: 'GET /courses?q=&level=&age=', path: '/courses?q=Python&level=beginner&age=12&limit=20' },
    { name: 'GraphQL guardianDashboard', path: '/graphql', body: dashboard },
    { name: 'GET /guardian/dashboard', path: '/guardian/dashboard' },
  ];
  console.log(`\n${COURSES.toLocaleString('en')} courses; dashboard: 5 learners x 20 courses; ${CONNECTIONS} connections, ${DURATION} s each, Node ${process.version}`);
  console.log('target                               req/s    p50 ms   p99 ms  SQL/request');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  // Counted one request at a time, before any load, so that no other request's statements mix in.
  const counts = [];
  for (const target of targets)
    counts.push(await countQueries(service, () => fetch(service.url + target.path, { method: target.body ? 'POST' : 'GET', headers, body: target.body }).then((r) => r.text())));
  for (const [i, target] of targets.entries()) {
    const queries = counts[i];
    const result = await autocannon({ url: service.url + target.path, method: target.body ? 'POST' : 'GET', headers, body: target.body, connections: CONNECTIONS, duration: DURATION });
    console.log(
      `${target.name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} ${result.latency.p50.toFixed(1).padStart(9)} ${result.latency.p99.toFixed(1).padStart(8)} ${String(queries).padStart(11)}${result.non2xx ? `  (${result.non2xx} non-2xx)` : ''}`,
    );
  }
  await service.stop();
  process.exit(0);
});

async function countQueries(service: Awaited<ReturnType<typeof startBenchService>>, request: () => Promise<unknown>): Promise<number> {
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
