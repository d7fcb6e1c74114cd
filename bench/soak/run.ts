import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Fleet, type Instance } from '../../src/scripts/fleet/fleet';
import { killGroup, stopOnSignals } from '../../src/scripts/fleet/processes';
import { startAiBackend } from '../../test/support/ai-backend';
import { makeDataDir } from '../../test/support/data-dir';
import { startSmtpServer } from '../../test/support/smtp';
import { run } from '../support';
import { drain, Ledger, pause } from './effects';
import { byMinute, GROWTH_LIMIT_MIB_PER_HOUR, growthOf, MemorySampler } from './memory';

/**
 * The soak run: the built service as a fleet (`--instances`, 1 by default) on one embedded
 * PostgreSQL behind nginx, with a real SMTP server and a real HTTP AI backend, for SOAK_MINUTES
 * (15) under mixed traffic from several areas, with faults on a schedule: an instance killed with
 * SIGKILL and started again (two instances or more), the postmaster killed, the mail server
 * refusing for a minute, the AI backend down for a minute; each once during the warm-up, then
 * again after it each but the kill. Then it waits for the outbox to drain
 * and reports, per kind of effect, what was committed, delivered, delivered twice and lost; the
 * resident memory of each instance per hour after warm-up (SOAK_WARMUP_MINUTES, a third of the run
 * up to 10), and each minute beside its JavaScript heap and Buffers (read from `/metrics`: RSS that
 * grows while they stay flat is native memory); the answers by
 * status and the p99 around each fault. It exits non-zero when anything was lost or an instance
 * grew GROWTH_LIMIT_MIB_PER_HOUR or more. SOAK_NODE_OPTIONS goes into the instances' NODE_OPTIONS
 * after the fleet's heap limit (so a `--max-old-space-size` in it wins). Not a test: a figure to read.
 */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 15);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
/** The JIT, V8's heap sizing and the pools settle in the first minutes: a third of the run, at most ten minutes. */
const WARM_UP_MS = Number(process.env.SOAK_WARMUP_MINUTES ?? Math.min(10, MINUTES / 3)) * 60_000;
/** Long enough for a lease of work held by a killed instance to run out and the work to be done again. */
const DRAIN_MS = Number(process.env.SOAK_DRAIN_SECONDS ?? 300) * 1000;
const { values: args } = parseArgs({ options: { instances: { type: 'string', default: '1' } } });
const INSTANCES = Number(args.instances);

interface Sample {
  at: number;
  ms: number;
  status: number;
}

interface Fault {
  name: string;
  at: number;
  until: number;
}

/** A fault to cause: its name in the report, and what causes it (resolved once it is over). */
interface Cause {
  name: string;
  run: () => Promise<void>;
}

/** `causes` at even intervals between `from` and `to` (ms into the run), none at either end. */
function spread(causes: Cause[], from: number, to: number): { at: number; cause: Cause }[] {
  const slot = (to - from) / (causes.length + 1);
  return causes.map((cause, k) => ({ at: from + (k + 1) * slot, cause }));
}

async function soak(): Promise<void> {
  const smtp = await startSmtpServer();
  const ai = await startAiBackend();
  const dataDir = makeDataDir('lp-soak-');
  const errors = new Map<string, number>();
  /** The first line logged of each error, whole: what it names is what the count alone cannot tell. */
  const firstLines = new Map<string, string>();
  const fleet = new Fleet({
    instances: INSTANCES,
    dataDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      TRUST_PROXY: '1',
      SMTP_URL: smtp.url,
      AI_BACKEND_URL: ai.url,
      AI_BACKEND_SECRET: 'a soak secret of some length',
      MAIL_RETRY_DELAY_MS: '2000',
      RATE_LIMIT_DEFAULT: '1000000',
      RATE_LIMIT_AUTH: '1000000',
      RATE_LIMIT_AI: '1000000',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      // For a look inside the instances, e.g. `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp`.
      ...(process.env.SOAK_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SOAK_NODE_OPTIONS } : {}),
      // To measure another allocator, e.g. `/usr/lib/x86_64-linux-gnu/libjemalloc.so.2`.
      ...(process.env.SOAK_LD_PRELOAD !== undefined ? { LD_PRELOAD: process.env.SOAK_LD_PRELOAD } : {}),
    },
    // Errors logged, by instance and message (the messages carry no personal data).
    onOutput: (name, line) => {
      const error = /"level":(50|60).*?"msg":"([^"]*)"/.exec(line);
      if (!error) return;
      const what = `${name}: ${error[2]}`;
      errors.set(what, (errors.get(what) ?? 0) + 1);
      if (!firstLines.has(what)) firstLines.set(what, line);
    },
  });
  const memory = new MemorySampler();
  let cleaningUp: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaningUp ??= (async () => {
      memory.stop();
      await fleet.stop();
      await smtp.close();
      await ai.close();
      rmSync(dataDir, { recursive: true, force: true });
    })());
  stopOnSignals(async (signal) => {
    console.log(`${signal}: stopping the fleet, the mail server and the AI backend; no report`);
    await cleanUp();
  }, 1);
  try {
    await fleet.start();
    for (const instance of fleet.instances) memory.follow(instance.name, instance.member!.child.pid!, instance.url);
    const report = await load(fleet, dataDir, smtp, ai, memory);
    const owedAfter = await drain(fleet.databaseUrl, report.ledger.exportIds, smtp.received, DRAIN_MS);
    memory.stop();
    const tally = report.ledger.tally(smtp.received);
    const growths = memory.lives.map((life) => growthOf(life, WARM_UP_MS));

    console.log(
      `soak: ${MINUTES} min, ${CLIENTS} clients, ${INSTANCES} instance(s) behind nginx, Node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`,
    );
    console.log(answersByStatus(report.samples));
    console.log(
      `drained in ${owedAfter.seconds.toFixed(0)} s; still owed: ${owedAfter.outbox} outbox row(s), ${owedAfter.failedOutbox} set aside as failed, exports not ready ${JSON.stringify(owedAfter.exports)}`,
    );
    console.log(
      '\n| effect | committed | delivered | delivered twice | of which one row sent again | lost |\n|---|---:|---:|---:|---:|---:|',
    );
    for (const t of tally)
      console.log(
        `| ${t.kind} | ${t.committed} | ${t.delivered} | ${t.deliveredTwice} | ${t.sameRowAgain} | ${t.lost} |`,
      );
    console.log(
      `\n| instance (pid) | RSS after warm-up | RSS at the end | measured | growth | through the medians |\n|---|---:|---:|---:|---:|---:|`,
    );
    for (const g of growths)
      console.log(
        g.measuredMinutes === 0
          ? `| ${g.instance} (${g.pid}) | - | - | - | ended before its warm-up did | |`
          : `| ${g.instance} (${g.pid}) | ${g.fromMiB.toFixed(0)} MiB | ${g.toMiB.toFixed(0)} MiB | ${g.measuredMinutes.toFixed(1)} min | ${perHour(g.perHour)} | ${perHour(g.medianPerHour)} |`,
      );
    for (const life of memory.lives)
      console.log(
        [
          `${life.instance} (${life.pid}), lowest of each minute, MiB`,
          `  RSS: ${byMinute(life).join(' ')}`,
          `  JavaScript heap used: ${byMinute(
            life,
            life.heap.map((h) => ({ at: h.at, kb: h.usedKb })),
          ).join(' ')}`,
          `  external (Buffers): ${byMinute(
            life,
            life.heap.map((h) => ({ at: h.at, kb: h.externalKb })),
          ).join(' ')}`,
        ].join('\n'),
      );
    console.log('');
    for (const f of report.faults)
      console.log(
        `${f.name}: p99 in the minute before ${p99(report.samples, f.at - 60_000, f.at)}, in the minute after recovery ${p99(report.samples, f.until, f.until + 60_000)}, recovered in ${((f.until - f.at) / 1000).toFixed(1)} s`,
      );
    for (const [what, n] of errors) console.log(`logged error: ${what} (${n}×), first: ${firstLines.get(what)}`);

    const lost = tally.reduce((sum, t) => sum + t.lost, 0);
    const grew = growths.filter((g) => g.medianPerHour !== undefined && g.medianPerHour >= GROWTH_LIMIT_MIB_PER_HOUR);
    if (lost > 0) console.log(`FAILED: ${lost} effect(s) committed and never delivered`);
    if (grew.length)
      console.log(
        `FAILED: resident memory grew ${GROWTH_LIMIT_MIB_PER_HOUR} MiB an hour or more after warm-up (${grew.map((g) => g.instance).join(', ')})`,
      );
    process.exitCode = lost > 0 || grew.length > 0 ? 1 : 0;
  } finally {
    await cleanUp();
  }
}

/** The clients and the faults, until SOAK_MINUTES have passed. */
async function load(
  fleet: Fleet,
  dataDir: string,
  smtp: Awaited<ReturnType<typeof startSmtpServer>>,
  ai: Awaited<ReturnType<typeof startAiBackend>>,
  memory: MemorySampler,
) {
  const samples: Sample[] = [];
  const faults: Fault[] = [];
  const ledger = new Ledger();
  const end = Date.now() + MINUTES * 60_000;

  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const t0 = performance.now();
    try {
      const response = await fetch(fleet.proxyUrl + path, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      samples.push({ at: Date.now(), ms: performance.now() - t0, status: response.status });
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
    } catch {
      samples.push({ at: Date.now(), ms: performance.now() - t0, status: 0 });
      return { status: 0, body: {} as Record<string, any> };
    }
  };

  /** One client: an adult learner who signs up, then reads, runs code, chats, asks for mail and an export. */
  const client = async (n: number) => {
    while (Date.now() < end) {
      const email = `soak-${n}-${Date.now()}@example.com`;
      const signup = await call('POST', '/auth/signup', {
        email,
        password: 'a long enough passphrase',
        displayName: `Soak ${n}`,
        role: 'learner',
        birthDate: '1990-01-01',
        country: 'US',
      });
      if (signup.status !== 201) {
        await pause(1000);
        continue;
      }
      ledger.commit('verification', email);
      const token = signup.body.accessToken as string;
      // A grant refused by a fault (a killed instance, the database restarting) is asked again, as a
      // person would; otherwise every chat of this learner is refused for want of consent.
      while ((await call('POST', '/consent/grant', { consentTypeId: 'ai_conversation' }, token)).status !== 200) {
        if (Date.now() >= end) return;
        await pause(1000);
      }
      const exported = await call('POST', '/gdpr/export', {}, token);
      if (exported.status === 202) {
        ledger.commit('exports', email);
        ledger.exportIds.push(exported.body.id as string);
      }
      if ((await call('POST', '/auth/forgot-password', { email })).status === 202) ledger.commit('reset', email);
      for (let i = 0; i < 40 && Date.now() < end; i++) {
        const pick = i % 8;
        if (pick === 0) await call('GET', '/auth/me', undefined, token);
        else if (pick === 1) await call('GET', '/courses?limit=20', undefined, token);
        else if (pick === 2) await call('GET', '/notifications', undefined, token);
        else if (pick === 3)
          await call('POST', '/codelab/run', { language: 'javascript', code: 'console.log(6 * 7)' }, token);
        else if (pick === 4) await call('POST', '/ai/chat', { message: 'What is a loop?' }, token);
        else if (pick === 5) await call('GET', '/features', undefined, token);
        else if (pick === 6) await call('GET', '/gdpr/requests', undefined, token);
        else await call('GET', '/codelab/exercises', undefined, token);
      }
    }
  };

  const serving = () =>
    Promise.all(
      fleet.instances.map(
        async (instance) => (await fetch(`${instance.url}/health`).catch(() => null))?.status === 200,
      ),
    ).then((all) => all.every(Boolean));
  const killed: Cause[] =
    fleet.instances.length > 1
      ? [
          {
            name: `instance ${fleet.instances[1].name} killed (SIGKILL) and started again`,
            run: () => killAndRestart(fleet.instances[1], memory),
          },
        ]
      : [];
  const kept: Cause[] = [
    {
      name: 'postmaster killed',
      run: async () => {
        process.kill(Number.parseInt(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8'), 10), 'SIGKILL');
        await pause(1000);
        await waitFor(serving, 120_000, 'the database did not come back');
      },
    },
    {
      name: 'SMTP refusing for a minute',
      run: async () => {
        smtp.refuseNext(1_000_000);
        await pause(60_000);
        smtp.refuseNext(0);
      },
    },
    {
      name: 'AI backend down for a minute',
      run: async () => {
        ai.state.behaviour = 'fail';
        await pause(60_000);
        ai.state.behaviour = 'ok';
      },
    },
  ];
  /**
   * Every fault once during the warm-up, then again, each that leaves every instance running, in
   * what is measured: the first of a kind compiles the code of its paths (errors, retries, a
   * backlog's burst) once in a process's life, which is warming up; what each one leaves behind
   * is what the growth after warm-up must show. The instance killed is killed once, early, so that
   * its next life is warmed up (the same faults inside its own warm-up) and measured as long.
   */
  const timeline = [...spread([...killed, ...kept], 0, WARM_UP_MS), ...spread(kept, WARM_UP_MS, MINUTES * 60_000)];
  const schedule = async () => {
    const started = Date.now();
    for (const { at, cause } of timeline) {
      await pause(started + at - Date.now());
      if (Date.now() > end) return;
      const from = Date.now();
      await cause.run();
      faults.push({ name: cause.name, at: from, until: Date.now() });
    }
  };

  await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), schedule()]);
  return { samples, faults, ledger };
}

/** kill -9 of the instance and what it started, as a crash or an OOM kill does; then a start, as its process manager does. */
async function killAndRestart(instance: Instance, memory: MemorySampler): Promise<void> {
  killGroup(instance.member!, 'SIGKILL');
  await instance.member!.exited();
  await instance.start();
  memory.follow(instance.name, instance.member!.child.pid!, instance.url);
}

function answersByStatus(samples: Sample[]): string {
  const byStatus = new Map<number, number>();
  for (const s of samples) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  return `answers by status: ${[...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s || 'no answer'}: ${n}`)
    .join(', ')}`;
}

function p99(samples: Sample[], from: number, to: number): string {
  const ms = samples
    .filter((s) => s.at >= from && s.at < to && s.status > 0)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return ms.length
    ? `${ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))].toFixed(1)} ms (n=${ms.length})`
    : 'n/a';
}

/** The machine's load average over 1, 5 and 15 minutes: the soak shares it with whatever else runs. */
function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

async function waitFor(done: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(what);
    await pause(500);
  }
}

function perHour(mibPerHour: number | undefined): string {
  return mibPerHour === undefined ? 'too short to tell' : `${mibPerHour.toFixed(1)} MiB/hour`;
}

run(soak);
