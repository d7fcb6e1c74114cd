import '../production';
import { Role } from '../../src/auth/user.entity';
import { OfflineCourseModel } from '../../src/factory/providers/offline';
import type { CourseBrief } from '../../src/factory/providers/model';
import { run, startBenchService } from '../support';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 50);
const LESSONS = Number(process.env.BENCH_LESSONS ?? 5);
const MODEL_DELAY_MS = process.env.BENCH_MODEL_DELAY_MS ?? '0';
const CONCURRENCY = process.env.FACTORY_CONCURRENCY ?? '4';

interface StageRow {
  name: string;
  position: number;
  started: number;
  finished: number;
  provider_ms: number;
  previous_finished: number | null;
  created: number;
}

/**
 * 50 generations started at once on the built-in provider: the total time, each stage's time, and
 * the pipeline's own overhead (queueing, scheduling and storage) apart from the providers' time.
 * The baseline is the same provider calls made directly, in-process, with nothing stored.
 */
run(async () => {
  const service = await startBenchService({
    FACTORY_OFFLINE_DELAY_MS: MODEL_DELAY_MS,
    FACTORY_CONCURRENCY: CONCURRENCY,
    JOBS_PROCESS_EVERY_MS: '500',
    FACTORY_MAX_ACTIVE_PER_REQUESTER: String(GENERATIONS),
  });
  const sql = <T>(query: string, params: unknown[] = []) =>
    service.app.deps.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
  const admin = await service.services.auth.createVerifiedUser(
    `bench-admin-${Date.now()}@example.com`,
    'a benchmark password',
    'Bench Admin',
    Role.content_admin,
  );

  const brief: CourseBrief = {
    topic: 'Python for young coders',
    level: 'beginner',
    minAge: 9,
    maxAge: 12,
    lessonCount: LESSONS,
  };
  const baseline = await providersAlone(brief, Number(MODEL_DELAY_MS));

  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: GENERATIONS }, (_, i) =>
      service.services.factory
        .start({ topic: `Python course ${i}`, level: 'beginner', ageRange: '9-12', lessonCount: LESSONS }, admin.id)
        .then((g) => g.id),
    ),
  );
  for (;;) {
    const [{ waiting }] = await sql<{ waiting: string }>(
      `select count(*) as waiting from course_generations where id in (?) and status not in ('awaiting_approval', 'flagged', 'failed')`,
      [ids],
    );
    if (Number(waiting) === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const total = performance.now() - started;
  const stages = await sql<StageRow>(
    `select s.name, s.position, extract(epoch from s.started_at) * 1000 as started, extract(epoch from s.finished_at) * 1000 as finished, s.provider_ms,
       extract(epoch from p.finished_at) * 1000 as previous_finished, extract(epoch from g.created_at) * 1000 as created
     from generation_stages s join course_generations g on g.id = s.generation_id
     left join generation_stages p on p.generation_id = s.generation_id and p.position = s.position - 1
     where s.generation_id in (?) order by s.position`,
    [ids],
  );
  const [{ failed }] = await sql<{ failed: string }>(
    `select count(*) as failed from course_generations where id in (?) and status <> 'awaiting_approval'`,
    [ids],
  );

  console.log(
    `\n${GENERATIONS} generations at once, ${LESSONS} lessons each, built-in provider (delay ${MODEL_DELAY_MS} ms per call), ${CONCURRENCY} stage jobs at a time per instance, Node ${process.version}`,
  );
  console.log(
    `total: ${(total / 1000).toFixed(2)} s for all ${GENERATIONS} (${(GENERATIONS / (total / 1000)).toFixed(1)} generations/s), ${failed} not awaiting approval`,
  );
  console.log(
    `baseline: the same provider calls in-process with nothing stored take ${baseline.toFixed(1)} ms per generation (${((baseline * GENERATIONS) / 1000).toFixed(2)} s for ${GENERATIONS}, one after another)\n`,
  );
  console.log('stage        run p50 ms  run p95 ms  provider avg ms  own avg ms  queued p50 ms  queued p95 ms');
  let ownTotal = 0;
  let queuedTotal = 0;
  for (const name of ['research', 'outline', 'content', 'quiz', 'safety']) {
    const rows = stages.filter((s) => s.name === name);
    const runs = rows.map((s) => s.finished - s.started);
    const own = rows.map((s) => s.finished - s.started - s.provider_ms);
    const queued = rows.map((s) => s.started - (s.previous_finished ?? s.created));
    ownTotal += avg(own);
    queuedTotal += avg(queued);
    console.log(
      `${name.padEnd(12)} ${pct(runs, 50).padStart(10)} ${pct(runs, 95).padStart(11)} ${avg(
        rows.map((s) => s.provider_ms),
      )
        .toFixed(1)
        .padStart(
          16,
        )} ${avg(own).toFixed(1).padStart(11)} ${pct(queued, 50).padStart(14)} ${pct(queued, 95).padStart(14)}`,
    );
  }
  console.log(
    `\npipeline overhead per generation: ${ownTotal.toFixed(1)} ms storing and publishing inside stages + ${queuedTotal.toFixed(1)} ms queued between stages (waiting for a free job slot included)`,
  );
  await service.stop();
  process.exit(0);
});

/** One generation's provider calls, straight, as the baseline the pipeline adds to. */
async function providersAlone(brief: CourseBrief, delayMs: number): Promise<number> {
  const model = new OfflineCourseModel(delayMs);
  const started = performance.now();
  const research = await model.research(brief);
  const outline = await model.outline(brief);
  for (const [i, plan] of outline.lessons.entries()) {
    const content = await model.lessonContent(brief, research, { ...plan, position: i + 1 });
    await model.quiz(brief, { ...plan, position: i + 1, content });
  }
  return performance.now() - started;
}

const avg = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
function pct(values: number[], p: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1);
}
