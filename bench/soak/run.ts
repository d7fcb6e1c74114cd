import { spawn } from 'node:child_process';
import { Client } from 'pg';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startAiBackend } from '../../test/support/ai-backend';
import { makeDataDir } from '../../test/support/data-dir';
import { freePort } from '../../test/support/ports';
import { startSmtpServer } from '../../test/support/smtp';
import { run } from '../support';

/**
 * The soak run: the service as `npm start` runs it (embedded PostgreSQL, a real SMTP
 * server, a real HTTP AI backend) for SOAK_MINUTES (15) under mixed traffic from several areas,
 * with faults on a schedule: the postmaster killed, the mail server refusing for a minute, the AI
 * backend down for a minute. It prints the answers by status, what was lost (mails and exports
 * asked for against those that arrived), the RSS growth per hour and the p99 before and after
 * each fault. Not a test: a figure to read, on a machine that is doing nothing else.
 */
const MINUTES = Number(process.env.SOAK_MINUTES ?? 15);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const main = join(__dirname, '..', '..', 'src', 'main.js');

interface Sample {
  at: number;
  ms: number;
  status: number;
}

async function soak(): Promise<void> {
  const smtp = await startSmtpServer();
  const ai = await startAiBackend();
  const dataDir = makeDataDir('lp-soak-');
  const [port, pgPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      SMTP_URL: smtp.url,
      AI_BACKEND_URL: ai.url,
      AI_BACKEND_SECRET: 'a soak secret of some length',
      MAIL_RETRY_DELAY_MS: '2000',
      RATE_LIMIT_DEFAULT: '1000000',
      RATE_LIMIT_AUTH: '1000000',
      RATE_LIMIT_AI: '1000000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (c) => (log = (log + c).slice(-20_000)));
  child.stderr!.on('data', (c) => (log = (log + c).slice(-20_000)));
  await waitFor(
    async () => (await fetch(`${base}/health`).catch(() => null))?.status === 200,
    120_000,
    () => `the service did not start:\n${log}`,
  );

  const samples: Sample[] = [];
  const rss: { at: number; kb: number }[] = [];
  const asked = { mails: new Set<string>(), exports: new Map<string, string>() };
  const notReady = async (ids: string[]) => {
    const password = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
    const client = new Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', password, database: 'learning_platform' });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from gdpr_requests where id = any($1::uuid[]) and status <> 'ready'`, [ids]);
      return rows[0].n;
    } finally {
      await client.end();
    }
  };
  const faults: { name: string; at: number; until: number }[] = [];
  const started = Date.now();
  const end = started + MINUTES * 60_000;

  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const t0 = performance.now();
    try {
      const response = await fetch(base + path, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
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
      const signup = await call('POST', '/auth/signup', { email, password: 'a long enough passphrase', displayName: `Soak ${n}`, role: 'learner', birthDate: '1990-01-01', country: 'US' });
      if (signup.status !== 201) {
        await pause(1000);
        continue;
      }
      asked.mails.add(email);
      const token = signup.body.accessToken as string;
      await call('POST', '/consent/grant', { consentTypeId: 'ai_conversation' }, token);
      const exported = await call('POST', '/gdpr/export', {}, token);
      if (exported.status === 202) asked.exports.set(exported.body.id as string, token);
      if ((await call('POST', '/auth/forgot-password', { email })).status === 202) asked.mails.add(`reset:${email}`);
      for (let i = 0; i < 40 && Date.now() < end; i++) {
        const pick = i % 8;
        if (pick === 0) await call('GET', '/auth/me', undefined, token);
        else if (pick === 1) await call('GET', '/courses?limit=20', undefined, token);
        else if (pick === 2) await call('GET', '/notifications', undefined, token);
        else if (pick === 3) await call('POST', '/codelab/run', { language: 'javascript', code: 'console.log(6 * 7)' }, token);
        else if (pick === 4) await call('POST', '/ai/chat', { message: 'What is a loop?' }, token);
        else if (pick === 5) await call('GET', '/features', undefined, token);
        else if (pick === 6) await call('GET', '/gdpr/requests', undefined, token);
        else await call('GET', '/codelab/exercises', undefined, token);
      }
    }
  };

  const sampler = setInterval(() => {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    rss.push({ at: Date.now(), kb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) });
  }, 10_000);

  const schedule = async () => {
    const slot = (MINUTES * 60_000) / 4;
    await pause(slot);
    if (Date.now() > end) return;
    const killed = Date.now();
    process.kill(Number.parseInt(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8'), 10), 'SIGKILL');
    await waitFor(
      async () => (await fetch(`${base}/health`).catch(() => null))?.status === 200,
      120_000,
      () => 'the database did not come back',
    );
    faults.push({ name: 'postmaster killed', at: killed, until: Date.now() });
    await pause(slot - (Date.now() - killed));
    if (Date.now() > end) return;
    const refusing = Date.now();
    smtp.refuseNext(1_000_000);
    await pause(60_000);
    smtp.refuseNext(0);
    faults.push({ name: 'SMTP refusing for a minute', at: refusing, until: Date.now() });
    await pause(slot - 60_000);
    if (Date.now() > end) return;
    const down = Date.now();
    ai.state.behaviour = 'fail';
    await pause(60_000);
    ai.state.behaviour = 'ok';
    faults.push({ name: 'AI backend down for a minute', at: down, until: Date.now() });
  };

  await Promise.all([...Array.from({ length: CLIENTS }, (_, n) => client(n)), schedule()]);
  clearInterval(sampler);

  // What was asked for must arrive: give the outbox time to deliver what the faults held up.
  const deadline = Date.now() + 180_000;
  let lostMails = 0;
  let lostExports = 0;
  for (;;) {
    lostMails = [...asked.mails].filter((key) => {
      const [reset, address] = key.startsWith('reset:') ? [true, key.slice(6)] : [false, key];
      return !smtp.received.some((m) => m.to.includes(address) && (reset ? /reset|đặt lại/i : /confirm|xác nhận/i).test(m.subject));
    }).length;
    // Read in the database: the early accounts' access tokens have expired by now.
    lostExports = await notReady([...asked.exports.keys()]);
    if ((lostMails === 0 && lostExports === 0) || Date.now() > deadline) break;
    await pause(5000);
  }
  const seen = new Map<string, number>();
  for (const m of smtp.received) seen.set(`${m.to}|${m.subject}|${m.text}`, (seen.get(`${m.to}|${m.subject}|${m.text}`) ?? 0) + 1);
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([key]) => key.split('|')[1]);
  const duplicateMails = `${duplicates.length}${duplicates.length ? ` (${[...new Set(duplicates)].join('; ')})` : ''}`;

  const byStatus = new Map<number, number>();
  for (const s of samples) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);
  const settled = rss.filter((r) => r.at > started + 60_000);
  const growth = settled.length > 1 ? ((settled.at(-1)!.kb - settled[0].kb) / 1024 / ((settled.at(-1)!.at - settled[0].at) / 3_600_000)).toFixed(1) : 'n/a';
  const p99 = (from: number, to: number) => {
    const ms = samples
      .filter((s) => s.at >= from && s.at < to && s.status > 0)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    return ms.length ? `${ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))].toFixed(1)} ms (n=${ms.length})` : 'n/a';
  };

  console.log(`soak: ${MINUTES} min, ${CLIENTS} clients, Node ${process.version}, ${new Date().toISOString()}`);
  console.log(
    `answers by status: ${[...byStatus]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s || 'no answer'}: ${n}`)
      .join(', ')}`,
  );
  console.log(`lost: mails ${lostMails} of ${asked.mails.size}, exports ${lostExports} of ${asked.exports.size}; mails received more than once: ${duplicateMails}`);
  console.log(`RSS: ${((settled[0]?.kb ?? 0) / 1024) | 0} MiB after the first minute, ${((rss.at(-1)?.kb ?? 0) / 1024) | 0} MiB at the end, growth ${growth} MiB/hour`);
  for (const f of faults)
    console.log(
      `${f.name}: p99 in the minute before ${p99(f.at - 60_000, f.at)}, in the minute after recovery ${p99(f.until, f.until + 60_000)}, recovered in ${((f.until - f.at) / 1000).toFixed(1)} s`,
    );

  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await smtp.close();
  await ai.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function waitFor(done: () => Promise<boolean>, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(what());
    await pause(500);
  }
}

run(soak);
