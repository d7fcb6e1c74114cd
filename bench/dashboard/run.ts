import '../production';
import { Agent } from 'undici';
import { Role } from '../../src/auth/user.entity';
import { signAccessToken } from '../../src/kernel/tokens';
import { NotificationType } from '../../src/notifications/notification.entity';
import { jsonCaller, loadPages, run, startBenchService } from '../support';
import { DASHBOARD } from './query';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Dashboards loaded at once (each REST load itself sends its calls in parallel). */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const LEARNERS = 5;
const COURSES = 20;

/**
 * `npm run bench:dashboard`: the guardian's dashboard (5 learners x 20 courses with progress,
 * certificates, consents, AI access and the unread count) loaded as one GraphQL request, against
 * the REST calls a client makes for the same data (account, unread count and links first, then 5
 * calls per learner, all in parallel over keep-alive connections), in the same run: whole pages per
 * second and the p50 of a whole page.
 */
run(async () => {
  const service = await startBenchService();
  const sql = (query: string, params: unknown[] = []) => service.app.deps.orm.em.getConnection().execute(query, params);
  await sql(
    `insert into courses (id, title, description, level, min_age, max_age, language, pass_mark, published, created_at, updated_at)
     select gen_random_uuid(), jsonb_build_object('en', 'Course ' || g, 'vi', 'Khóa học ' || g), jsonb_build_object('en', 'About loops', 'vi', 'Về vòng lặp'),
       'beginner', 8, 14, 'vi', 70, true, now() - (g || ' seconds')::interval, now()
     from generate_series(1, ?) g`,
    [COURSES],
  );
  await sql(`insert into lessons (id, course_id, position, title, objectives, content, quiz)
     select gen_random_uuid(), c.id, p, '{"en":"L","vi":"B"}', '{"en":[],"vi":[]}', '{"en":"C","vi":"N"}', null from courses c cross join generate_series(1, 5) p`);
  const { auth, guardian, notifications } = service.services;
  const parent = await auth.createVerifiedUser(
    `bench-guardian-${Date.now()}@example.com`,
    'a benchmark password',
    'Bench Parent',
    Role.guardian,
  );
  const courses = (await sql('select id from courses order by created_at desc limit ?', [COURSES])) as { id: string }[];
  const learnerIds: string[] = [];
  for (let i = 0; i < LEARNERS; i++) {
    const link = await guardian.addChild(parent, { displayName: `Child ${i}`, birthDate: '2014-01-01' });
    const child = link.learner!.id;
    learnerIds.push(child);
    for (const [n, { id }] of courses.entries()) {
      await sql(
        'insert into enrollments (id, learner_id, course_id, created_at) values (gen_random_uuid(), ?, ?, now())',
        [child, id],
      );
      await sql(
        `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) select gen_random_uuid(), ?, l.id, l.course_id, 120, now() from lessons l where l.course_id = ? and l.position <= ?`,
        [child, id, n % 4 === 0 ? 5 : 2],
      );
      if (n % 4 === 0)
        await sql(
          `insert into certificates (id, learner_id, course_id, code, average_score, issued_at) values (gen_random_uuid(), ?, ?, ?, 90, now())`,
          [child, id, `B${i}${n}${Date.now()}`],
        );
    }
  }
  for (let i = 0; i < 10; i++)
    await notifications.notify(parent.id, NotificationType.progress, {
      title: { en: 'Progress', vi: 'Tiến độ' },
      body: { en: 'A course is done', vi: 'Xong' },
    });
  await sql('analyze');
  const token = signAccessToken(service.config, { sub: parent.id, roles: [Role.guardian] });
  const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000, pipelining: 1 });
  const callAs = jsonCaller(service.url, agent);
  const call = (path: string, body?: string) => callAs(token, path, body);
  const graphqlPage = () => call('/graphql', JSON.stringify({ query: DASHBOARD }));
  const restPage = async () => {
    const [, , links] = (await Promise.all([
      call('/auth/me'),
      call('/notifications/unread-count'),
      call('/guardian/me/links?limit=100'),
    ])) as [unknown, unknown, { items: { status: string; learner: { id: string } | null }[] }];
    const learners = links.items.filter((l) => l.status === 'active' && l.learner).map((l) => l.learner!.id);
    await Promise.all(
      learners.flatMap((id) =>
        ['progress', 'courses', 'certificates', 'consents', 'ai-access'].map((part) =>
          call(`/guardian/learners/${id}/${part}`),
        ),
      ),
    );
    return learners.length;
  };

  // The same data both ways, checked before timing.
  const checked = (await graphqlPage()) as {
    data: { viewer: { linkedLearners: { nodes: { enrollments: { nodes: unknown[] } }[] } } };
  };
  if (
    checked.data.viewer.linkedLearners.nodes.length !== LEARNERS ||
    checked.data.viewer.linkedLearners.nodes.some((l) => l.enrollments.nodes.length !== COURSES)
  )
    throw new Error('GraphQL dashboard incomplete');
  if ((await restPage()) !== LEARNERS) throw new Error('REST dashboard incomplete');

  console.log(
    `\nGuardian dashboard: ${LEARNERS} learners x ${COURSES} courses, progress, certificates, consents, AI access, unread count`,
  );
  console.log(`${CLIENTS} dashboards loading at once, ${DURATION} s each, keep-alive, Node ${process.version}`);
  console.log('way                                    requests/page  pages/s   p50 ms   p99 ms');
  const results: Record<string, { perSecond: number; p50: number }> = {};
  for (const [name, page, requests] of [
    ['REST (parallel calls)', restPage, 3 + LEARNERS * 5],
    ['GraphQL (one request)', graphqlPage, 1],
  ] as const) {
    const { perSecond, p50, p99 } = await loadPages(page, CLIENTS, DURATION);
    results[name] = { perSecond, p50 };
    console.log(
      `${name.padEnd(38)} ${String(requests).padStart(13)} ${perSecond.toFixed(1).padStart(8)} ${p50.toFixed(1).padStart(8)} ${p99.toFixed(1).padStart(8)}`,
    );
  }
  const rest = results['REST (parallel calls)'];
  const graph = results['GraphQL (one request)'];
  console.log(
    `GraphQL against REST: ${(graph.perSecond / rest.perSecond).toFixed(2)}x pages/s, ${(rest.p50 / graph.p50).toFixed(2)}x faster p50`,
  );
  await agent.close();
  await service.stop();
  process.exit(0);
});
