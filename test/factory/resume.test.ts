import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app';
import { Client } from '../support/http';
import { type ChatRequest, promptOf, startModelServer } from '../support/model-server';
import { freePort } from '../support/ports';
import { signInAdmin } from '../support/users';
import { request, waitForStatus } from './support';

const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const dataDir = makeDataDir('lp-factory-resume-');
const running: ChildProcess[] = [];
const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The built service in a process of its own, on the test's database. */
async function start(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; http: Client; output: () => string }> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [main], {
    // No CodeLab warm-up: the generations are what this test watches, and a warm-up costs a dozen seconds of CPU.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      JWT_SECRET,
      LOG_LEVEL: 'info',
      CODELAB_PREWARM: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 45_000;
  while (!output.includes('Listening')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, http: new Client(`http://127.0.0.1:${port}`), output: () => output };
}

async function rows<T>(databaseUrl: string, sql: string, params: unknown[]): Promise<T[]> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    return (await pg.query(sql, params)).rows;
  } finally {
    await pg.end();
  }
}

describe('a generation whose process is killed during a stage', () => {
  it('resumes at the first unfinished lesson in a new process, with one output per stage and per lesson', async () => {
    const models = await startModelServer();
    const lessonOf = (r: ChatRequest) => Number(/Write lesson (\d+)/.exec(promptOf(r))?.[1]);
    models.state.delayMs = 150;
    models.state.chat = (r) =>
      lessonOf(r)
        ? {
            content: JSON.stringify({
              content: { en: `Lesson ${lessonOf(r)} in English`, vi: `Bài ${lessonOf(r)} bằng tiếng Việt` },
            }),
          }
        : {
            content: JSON.stringify({
              summary: { en: 'Loops', vi: 'Vòng lặp' },
              concepts: [{ name: { en: 'loops', vi: 'vòng lặp' }, explanation: { en: 'repeat', vi: 'lặp lại' } }],
            }),
          };

    // An admin and a database, made through an in-process app that is closed before the pipeline runs.
    const setup = await startTestApp();
    const admin = await signInAdmin(setup);
    const databaseUrl = setup.databaseUrl;
    await setup.close();

    const env = {
      DATABASE_URL: databaseUrl,
      FACTORY_PROVIDERS: 'research=open_weight,content=open_weight',
      OPEN_WEIGHT_LLM_URL: models.url,
      JOBS_LOCK_LIFETIME_MS: '2000',
      JOBS_PROCESS_EVERY_MS: '200',
    };
    const first = await start(env);
    const started = await first.http.post('/factory/generate', request({ lessonCount: 8 }), {
      token: admin.accessToken,
    });
    expect(started.status).toBe(202);
    const id = started.body.id;
    const written = () =>
      rows<{ position: number; content: unknown }>(
        databaseUrl,
        'select position, content from generation_lessons where generation_id = $1 and content is not null order by position',
        [id],
      );
    const deadline = Date.now() + 20_000;
    while ((await written()).length < 3) {
      if (Date.now() > deadline) throw new Error('the content stage did not get going');
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const before = await rows<{ name: string; finished_at: Date; output: unknown }>(
      databaseUrl,
      "select name, finished_at, output from generation_stages where generation_id = $1 and status = 'done' order by position",
      [id],
    );
    const lessonsBefore = await written();
    expect(before.map((s) => s.name)).toEqual(['research', 'outline']);
    expect(lessonsBefore.length).toBeLessThan(8);

    const second = await start(env);
    const done = await waitForStatus(second.http, admin.accessToken, id, ['awaiting_approval'], 30_000);
    second.child.kill('SIGTERM');

    // Finished stages were not run again, and what they stored is as it was (the log of the second process says why if not).
    expect(
      done.stages.map((s: { name: string; attempts: number }) => [s.name, s.attempts]),
      second.output(),
    ).toEqual([
      ['research', 1],
      ['outline', 1],
      ['content', 2],
      ['quiz', 1],
      ['safety', 1],
    ]);
    const after = await rows<{ name: string; finished_at: Date; output: unknown }>(
      databaseUrl,
      "select name, finished_at, output from generation_stages where generation_id = $1 and name in ('research', 'outline') order by position",
      [id],
    );
    expect(after).toEqual(before);
    // One lesson per position, each with its content and quiz; those written before the kill kept.
    const lessons = await rows<{ position: number; content: { en: string }; quiz: unknown }>(
      databaseUrl,
      'select position, content, quiz from generation_lessons where generation_id = $1 order by position',
      [id],
    );
    expect(lessons.map((l) => l.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lessons.every((l) => l.content && l.quiz)).toBe(true);
    expect(lessons.slice(0, lessonsBefore.length).map((l) => ({ position: l.position, content: l.content }))).toEqual(
      lessonsBefore,
    );
    // The model was asked once for research, and once per lesson, except the one in flight at the kill.
    const asked = models.chats.map(lessonOf);
    expect(asked.filter((n) => !n)).toHaveLength(1);
    for (const { position } of lessonsBefore) expect(asked.filter((n) => n === position)).toHaveLength(1);
    expect(asked.filter(Boolean).length).toBeLessThanOrEqual(9);
    // One job per stage: the killed one was taken over, not queued again.
    const jobs = await rows<{ key: string; count: string }>(
      databaseUrl,
      "select data->>'key' as key, count(*) from agenda_jobs where data->>'generationId' = $1 group by 1",
      [id],
    );
    expect(jobs.map((j) => Number(j.count))).toEqual([1, 1, 1, 1, 1]);
    await models.close();
  }, 90_000);
});
