import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markExportReady } from '../../src/gdpr/gdpr.jobs';
import { EXPORT_JOB } from '../../src/gdpr/gdpr.service';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { homeOf, ownerOfAccount } from '../support/regions';
import { asOwner } from '../support/sql';
import { adultSignup, type SignedIn, signUpVerified } from '../support/users';
import { waitForRequest } from './support';

/**
 * An export is claimed under a lease by the run that works on it. When that run's instance dies
 * (kill -9), another instance's job finds the claim held: it must come back once the lease ends,
 * not report the export done and leave it `running` for good.
 */
let smtp: SmtpServer;
let t: TestApp;
const LEASE_MS = 2000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url, JOBS_PROCESS_EVERY_MS: '200', JOBS_LOCK_LIFETIME_MS: String(LEASE_MS) });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** An export as a run that died left it: `running`, its lease ending `leaseEndsInMs` from now (negative: over already). */
async function exportLeftRunning(account: SignedIn, leaseEndsInMs: number): Promise<{ id: string; leaseUntil: Date }> {
  const [row] = (await asOwner(
    await ownerOfAccount(t, account.id),
    `insert into gdpr_requests (id, kind, status, subject_id, requester_id, lease_until, created_at, updated_at)
     values (gen_random_uuid(), 'export', 'running', $1, $1, now() + make_interval(secs => $2), now(), now()) returning id, lease_until`,
    [account.id, leaseEndsInMs / 1000],
  )) as { id: string; lease_until: Date }[];
  return { id: row.id, leaseUntil: new Date(row.lease_until) };
}

const exportMails = (to: string) =>
  smtp.received.filter((m) => m.to.includes(to) && /export|xuất|dữ liệu|data/i.test(m.subject));

describe('an export whose run died', () => {
  it('is taken over by the job that finds it claimed, once the lease ends, and mailed once', async () => {
    const account = await signUpVerified(t, smtp);
    const left = await exportLeftRunning(account, LEASE_MS);
    // The dead instance's job, as the survivor's Agenda takes it over.
    await (await homeOf(t, account.id)).jobs.agenda.now(EXPORT_JOB, { requestId: left.id });
    const ready = await waitForRequest(t, account.accessToken, left.id, ['ready', 'failed'], 20_000);
    expect(ready.status).toBe('ready');
    // Not taken while the other run's lease lasted.
    expect(new Date(ready.completedAt).getTime()).toBeGreaterThanOrEqual(left.leaseUntil.getTime());
    await smtp.waitFor(account.email, /export|xuất|dữ liệu|data/i, 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(exportMails(account.email)).toHaveLength(1);
  });

  it('left with no job at all (its lease over) is given one by the privacy sweep, and completes', async () => {
    const account = await signUpVerified(t, smtp);
    const left = await exportLeftRunning(account, -60_000);
    await (await homeOf(t, account.id)).jobs.agenda.now('gdpr: sweep');
    const ready = await waitForRequest(t, account.accessToken, left.id, ['ready', 'failed'], 20_000);
    expect(ready.status).toBe('ready');
    await smtp.waitFor(account.email, /export|xuất|dữ liệu|data/i, 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(exportMails(account.email)).toHaveLength(1);
  });
});

describe('an export whose run stalled past its lease', () => {
  it('is marked ready and mailed once, by the run that took it over: the stalled run, resumed, does neither', async () => {
    // An account of global's database, where the test writes the stalled run's claim.
    const account = await signUpVerified(t, smtp, adultSignup({ country: 'DE' }));
    const [{ id }] = (await asOwner(
      t,
      `insert into gdpr_requests (id, kind, status, subject_id, requester_id, created_at, updated_at)
       values (gen_random_uuid(), 'export', 'queued', $1, $1, now(), now()) returning id`,
      [account.id],
    )) as { id: string }[];
    // The stalled run claimed it, then neither worked nor renewed its lease (a paused process) for longer than the lease.
    const stalled = await openUnit(t.app.deps).services.gdpr.claimExport(id);
    expect(stalled).not.toBeNull();
    await new Promise((r) => setTimeout(r, LEASE_MS + 300));
    await t.app.deps.jobs.agenda.now(EXPORT_JOB, { requestId: id });
    const ready = await waitForRequest(t, account.accessToken, id, ['ready', 'failed'], 20_000);
    expect(ready.status).toBe('ready');
    await smtp.waitFor(account.email, /export|xuất|dữ liệu|data/i, 10_000);

    // The stalled run resumes at its last step.
    const marked = await markExportReady(t.app.deps, id, stalled!.owner);
    await new Promise((r) => setTimeout(r, 1500));
    expect(exportMails(account.email)).toHaveLength(1);
    expect(marked).toBe(false);
    const after = await waitForRequest(t, account.accessToken, id, ['ready'], 5000);
    expect(after.completedAt).toBe(ready.completedAt);
    expect(after.expiresAt).toBe(ready.expiresAt);
  });
});
