import '../production';
import autocannon from 'autocannon';
import { Role } from '../../src/auth/user.entity';
import { signAccessToken } from '../../src/kernel/tokens';
import { run, startBenchService } from '../support';

const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 30);
const COURSES = Number(process.env.BENCH_COURSES ?? 10);
const FLAGS = Number(process.env.BENCH_FLAGS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

/**
 * Class progress for a class of 30 adult learners with 10 assigned courses (5 lessons each, 3
 * completed and 2 quizzes taken per course), and GET /features over 20 flags with rules, against
 * the bare GET /auth/me of the same run.
 */
run(async () => {
  const service = await startBenchService();
  const sql = (query: string, params: unknown[] = []) => service.app.deps.orm.em.getConnection().execute(query, params);
  const { auth, school, features } = service.services;
  const admin = await auth.createVerifiedUser(
    `bench-admin-${Date.now()}@example.com`,
    'a benchmark password',
    'Bench Admin',
    Role.admin,
  );
  const teacher = await auth.createVerifiedUser(
    `bench-teacher-${Date.now()}@example.com`,
    'a benchmark password',
    'Bench Teacher',
    Role.guardian,
  );
  const theSchool = await school.createSchool(admin, 'Bench School', 'VN');
  await school.setMember(admin, theSchool.id, teacher.email, 'teacher' as never);
  const theClass = await school.createClass(teacher, theSchool.id, 'Bench class');
  await sql(
    `insert into courses (id, title, description, level, min_age, max_age, language, pass_mark, published, created_at, updated_at)
     select gen_random_uuid(), jsonb_build_object('en', 'Course ' || g, 'vi', 'Khóa ' || g), '{"en":"d","vi":"d"}', 'beginner', 10, 18, 'vi', 70, true, now(), now() from generate_series(1, ?) g`,
    [COURSES],
  );
  await sql(`insert into lessons (id, course_id, position, title, objectives, content, quiz)
     select gen_random_uuid(), c.id, p, '{"en":"L","vi":"B"}', '{"en":[],"vi":[]}', '{"en":"C","vi":"N"}', null from courses c cross join generate_series(1, 5) p`);
  await sql(
    `insert into class_courses (id, school_class_id, course_id, assigned_at) select gen_random_uuid(), ?, id, now() from courses`,
    [theClass.id],
  );
  for (let i = 0; i < LEARNERS; i++) {
    const learner = await auth.createVerifiedUser(
      `bench-learner-${i}-${Date.now()}@example.com`,
      'a benchmark password',
      `Learner ${i}`,
      Role.learner,
    );
    await sql(`update users set birth_date = '2000-01-01' where id = ?`, [learner.id]);
    await sql(
      'insert into class_members (id, school_class_id, learner_id, joined_at) values (gen_random_uuid(), ?, ?, now())',
      [theClass.id, learner.id],
    );
    await sql(
      'insert into enrollments (id, learner_id, course_id, created_at) select gen_random_uuid(), ?, id, now() from courses',
      [learner.id],
    );
    await sql(
      `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) select gen_random_uuid(), ?, l.id, l.course_id, 120, now() from lessons l where l.position <= 3`,
      [learner.id],
    );
    await sql(
      `insert into quiz_attempts (id, learner_id, lesson_id, course_id, answers, correct, total, score, created_at) select gen_random_uuid(), ?, l.id, l.course_id, '[1]', 1, 1, 80, now() from lessons l where l.position <= 2`,
      [learner.id],
    );
  }
  for (let i = 0; i < FLAGS; i++) {
    await features.put(admin, `flag_${i}`, {
      enabled: true,
      rules: [{ roles: ['learner', 'guardian'], countries: ['VN'], percentage: 50 }, { tiers: ['pro'] }],
    });
  }
  await sql('analyze');
  const teacherToken = signAccessToken(service.config, { sub: teacher.id, roles: teacher.roles });
  const targets = [
    { name: 'GET /auth/me (baseline)', path: '/auth/me' },
    { name: `GET /features (${FLAGS} flags)`, path: '/features' },
    { name: `GET /school/classes/:id/progress`, path: `/school/classes/${theClass.id}/progress` },
  ];
  console.log(
    `\nclass: ${LEARNERS} learners x ${COURSES} courses; ${CONNECTIONS} connections, ${DURATION} s each, Node ${process.version}`,
  );
  console.log('target                               req/s    p50 ms   p99 ms  SQL/request');
  const headers = { authorization: `Bearer ${teacherToken}` };
  const counts = [];
  for (const target of targets)
    counts.push(await countQueries(service, () => fetch(service.url + target.path, { headers }).then((r) => r.text())));
  // Warm-up, so that the first target does not pay for the JIT.
  for (const target of targets)
    await autocannon({ url: service.url + target.path, headers, connections: CONNECTIONS, duration: 2 });
  const single: number[] = [];
  for (const target of targets) {
    const started = performance.now();
    for (let i = 0; i < 20; i++) await fetch(service.url + target.path, { headers }).then((r) => r.text());
    single.push((performance.now() - started) / 20);
  }
  console.log(
    `one at a time (ms): ${targets.map((t, i) => `${t.name.split(' (')[0]} ${single[i].toFixed(1)}`).join(', ')}`,
  );
  const rates: number[] = [];
  for (const [i, target] of targets.entries()) {
    const result = await autocannon({
      url: service.url + target.path,
      headers,
      connections: CONNECTIONS,
      duration: DURATION,
    });
    rates.push(result.requests.average);
    console.log(
      `${target.name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} ${result.latency.p50.toFixed(1).padStart(9)} ${result.latency.p99.toFixed(1).padStart(8)} ${String(counts[i]).padStart(11)}${result.non2xx ? `  (${result.non2xx} non-2xx)` : ''}`,
    );
  }
  console.log(`GET /features at ${((rates[1] / rates[0]) * 100).toFixed(0)}% of GET /auth/me (aim: 80% or more)`);
  await service.stop();
  process.exit(0);
});

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
