import '../production';
import { SMTPServer } from 'smtp-server';
import { sendDueReports } from '../../src/guardian-reports';
import { GdprRequest } from '../../src/gdpr/gdpr-request.entity';
import { openUnit } from '../../src/server/platform';
import { run, startBenchService } from '../support';

const GUARDIANS = Number(process.env.BENCH_GUARDIANS ?? 10_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 100_000);
const PROGRESS_ROWS = Number(process.env.BENCH_PROGRESS_ROWS ?? 1_000);
const EXPORT_TIMEOUT_MS = Number(process.env.BENCH_EXPORT_TIMEOUT_MS ?? 600_000);

/** Peak resident memory while `work` runs, sampled every 20 ms, in MiB above what it was before. */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; peakMiB: number; baseMiB: number; heapMiB: number; externalMiB: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  let atPeak = process.memoryUsage();
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > peak) [peak, atPeak] = [now.rss, now];
  }, 20);
  const start = performance.now();
  try {
    const result = await work();
    return {
      result,
      seconds: (performance.now() - start) / 1000,
      peakMiB: (peak - base) / 2 ** 20,
      baseMiB: base / 2 ** 20,
      heapMiB: atPeak.heapUsed / 2 ** 20,
      externalMiB: (atPeak.external + atPeak.arrayBuffers) / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The weekly report run for BENCH_GUARDIANS guardians with 2 learners each (mails into a real SMTP
 * sink), and an export of a user with 100,000 notifications and 1,000 progress rows next to one of
 * a small user: time and peak memory.
 */
run(async () => {
  let received = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _s, done) {
      stream.on('end', () => {
        received++;
        done();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const port = (sink.server.address() as { port: number }).port;
  const service = await startBenchService({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    GDPR_SWEEP_EVERY: '1 day',
    JOBS_PROCESS_EVERY_MS: '200',
  });
  const sql = (query: string, params: unknown[] = []) => service.app.deps.orm.em.getConnection().execute(query, params);
  // The service's own recurring report job runs at the real clock: on a real Monday it would send
  // this very week's reports to the seeded guardians beside the run measured here (each taking
  // part of the claims, the figures meaningless), and run on after Agenda counted it dead. It is
  // taken off the queue; the run below is the only one.
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (await service.app.deps.jobs.agenda.cancel({ name: 'reports: send due' })) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const seeding = performance.now();
  // A course of PROGRESS_ROWS lessons, GUARDIANS guardians in Viet Nam with 2 learners each, active links, last week's activity.
  const [course] =
    await sql(`insert into courses (id, title, description, level, min_age, max_age, language, pass_mark, published, created_at, updated_at)
    values (gen_random_uuid(), '{"en":"C","vi":"C"}', '{"en":"D","vi":"D"}', 'beginner', 6, 18, 'vi', 50, true, now(), now()) returning id`);
  await sql(
    `insert into lessons (id, course_id, position, title, objectives, content) select gen_random_uuid(), ?, p, '{"en":"L","vi":"B"}', '{"en":[],"vi":[]}', '{"en":"C","vi":"N"}' from generate_series(1, ?) p`,
    [course.id, PROGRESS_ROWS],
  );
  await sql(
    `insert into users (id, email, password_hash, display_name, roles, country, locale, status, email_verified_at, created_at, updated_at)
    select gen_random_uuid(), 'bench-g' || g || '@example.com', '!', 'Guardian ' || g, '{guardian}', 'VN', (array['vi','en'])[1 + g % 2], 'active', now(), now(), now() from generate_series(1, ?) g`,
    [GUARDIANS],
  );
  await sql(
    `insert into users (id, email, password_hash, display_name, roles, birth_date, country, locale, status, created_at, updated_at)
    select gen_random_uuid(), 'bench-l' || g || '-' || k || '@example.com', '!', 'Learner ' || g || '-' || k, '{learner}', '2014-01-01', 'VN', 'vi', 'active', now(), now()
      from generate_series(1, ?) g cross join generate_series(1, 2) k`,
    [GUARDIANS],
  );
  // Each link found by its two addresses through the unique index (a LIKE join compared every guardian with every learner: minutes at 10,000).
  await sql(
    `insert into guardian_links (id, guardian_id, learner_id, learner_email, status, "primary", created_at, activated_at)
    select gen_random_uuid(), g.id, l.id, l.email, 'active', true, now(), now()
      from generate_series(1, ?) n cross join generate_series(1, 2) k
      join users g on g.email = 'bench-g' || n || '@example.com'
      join users l on l.email = 'bench-l' || n || '-' || k || '@example.com'`,
    [GUARDIANS],
  );
  const lesson = (await sql(`select id from lessons where course_id = ? order by position limit 1`, [course.id]))[0];
  await sql(
    `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at)
    select gen_random_uuid(), id, ?, ?, 60, timestamptz '2026-11-18 05:00:00+00' from users where email like 'bench-l%'`,
    [lesson.id, course.id],
  );
  await sql('analyze');

  console.log(
    `Seeded ${GUARDIANS.toLocaleString('en')} guardians and ${(2 * GUARDIANS).toLocaleString('en')} learners with set-based SQL in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const weekly = await measured(() => sendDueReports(service.app.deps, new Date('2026-11-23T02:00:00Z')));
  for (let waited = 0; received < weekly.result && waited < 60_000; waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  console.log(`\nWeekly reports: ${GUARDIANS.toLocaleString('en')} guardians x 2 learners, Node ${process.version}`);
  console.log(
    `  mails sent ${weekly.result.toLocaleString('en')} (sink received ${received.toLocaleString('en')}) in ${(weekly.seconds / 60).toFixed(2)} min: ${(weekly.result / weekly.seconds).toFixed(1)} mails/s; peak memory +${weekly.peakMiB.toFixed(0)} MiB over ${weekly.baseMiB.toFixed(0)} MiB (JS heap ${weekly.heapMiB.toFixed(0)} MiB, buffers ${weekly.externalMiB.toFixed(0)} MiB at the peak)`,
  );

  // Exports: a small user, then one with NOTIFICATIONS notifications and PROGRESS_ROWS progress rows.
  const [small] = await sql(`select id from users where email = 'bench-l1-1@example.com'`);
  const [big] = await sql(`select id from users where email = 'bench-l2-1@example.com'`);
  // Seeded as read: the unread counter's row trigger would otherwise update the one counter row
  // 100,000 times in this one statement, each update slower than the last (many minutes, which is
  // what looked like the small user's export hanging: the export line is printed after this).
  const notificationsSeeded = performance.now();
  await sql(
    `insert into notifications (id, user_id, type, title, body, data, created_at, read_at) select gen_random_uuid(), ?, 'progress', 'Lesson ' || g || ' done', 'You completed lesson ' || g || ' of the course. Well done, keep going!', jsonb_build_object('lessonId', gen_random_uuid()), now() - (g || ' seconds')::interval, now() from generate_series(1, ?) g`,
    [big.id, NOTIFICATIONS],
  );
  await sql(
    `insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) select gen_random_uuid(), ?, l.id, l.course_id, 60, now() from lessons l where l.course_id = ? and l.id <> ?`,
    [big.id, course.id, lesson.id],
  );
  console.log(
    `Seeded ${NOTIFICATIONS.toLocaleString('en')} notifications and ${PROGRESS_ROWS.toLocaleString('en')} progress rows in ${((performance.now() - notificationsSeeded) / 1000).toFixed(1)} s`,
  );
  await sql('analyze');
  for (const [label, user] of [
    ['small user (1 progress row)', small],
    [`${NOTIFICATIONS.toLocaleString('en')} notifications + ${PROGRESS_ROWS.toLocaleString('en')} progress rows`, big],
  ] as const) {
    const exported = await measured(async () => {
      const { services, uow } = openUnit(service.app.deps);
      const request = await services.gdpr.requestExport(user.id, null);
      // Bounded: a stuck export is reported with its state, never waited for forever.
      for (const deadline = Date.now() + EXPORT_TIMEOUT_MS; ;) {
        const row = await uow.em.fork().findOneOrFail(GdprRequest, { id: request.id });
        if (row.status === 'ready' || row.status === 'failed') return row.status;
        if (Date.now() > deadline) {
          const jobs = await sql(
            `select name, locked_at, fail_count, fail_reason, next_run_at from agenda_jobs where name = 'gdpr: export'`,
          );
          return `stuck ${row.status} after ${EXPORT_TIMEOUT_MS / 1000} s (${JSON.stringify({ error: row.error, jobs })})`;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    console.log(
      `Export, ${label}: ${exported.result} in ${exported.seconds.toFixed(2)} s; peak memory +${exported.peakMiB.toFixed(0)} MiB over ${exported.baseMiB.toFixed(0)} MiB (JS heap ${exported.heapMiB.toFixed(0)} MiB at the peak)`,
    );
  }
  await service.stop();
  sink.close();
  process.exit(0);
});
