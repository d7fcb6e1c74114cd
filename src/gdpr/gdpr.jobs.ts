import { exponential } from 'agenda';
import { sendMail } from '../mail/queue';
import type { Area } from '../kernel/area';
import type { Deps } from '../kernel/deps';
import { whileLeased } from '../kernel/lease';
import { type Services, servicesOfArea } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { ExportArchive } from './gdpr.archive';
import { downloadUrl } from './gdpr.links';
import { exportReadme, exportReadyMail, readmeFile } from './gdpr.mails';
import { EXPORT_JOB, exportFile } from './gdpr.service';

type InUnit = (work: (services: Services, uow: UnitOfWork) => Promise<void>) => Promise<void>;

const SWEEP_JOB = 'gdpr: sweep';
const EXPORT_ATTEMPTS = 3;
const units = new WeakMap<Deps, InUnit>();

/**
 * The privacy jobs: one per export, and a sweep (every GDPR_SWEEP_EVERY) that erases the accounts
 * whose grace period is over and deletes expired export files.
 */
export const defineGdprJobs: NonNullable<Area['jobs']> = (deps, inUnit) => {
  units.set(deps, inUnit);
  const { agenda } = deps.jobs;
  deps.jobs.define<{ requestId: string }>(
    EXPORT_JOB,
    (job) => runExport(deps, inUnit, job.attrs.data.requestId, (job.attrs.failCount ?? 0) + 1 >= EXPORT_ATTEMPTS),
    {
      concurrency: 2,
      backoff: exponential({ delay: 2000, factor: 2, maxDelay: 60_000, maxRetries: EXPORT_ATTEMPTS - 1 }),
      // The request row says how it went; a done job's row only filled the table (16,000 an hour in the soak).
      removeOnComplete: true,
    },
  );
  deps.jobs.define(SWEEP_JOB, () => sweep(deps, inUnit), { concurrency: 1 });
  // Agenda keeps one job of this name however many instances ask for it.
  agenda.on('ready', () => {
    agenda
      .every(deps.config.GDPR_SWEEP_EVERY, SWEEP_JOB)
      .catch((error) => deps.log.error({ err: error }, 'gdpr sweep not scheduled'));
  });
};

async function sweep(deps: Deps, inUnit: InUnit, now = new Date()): Promise<void> {
  await eraseDue(deps, now, inUnit);
  await inUnit(async (services) => {
    await services.gdpr.removeExpiredExports(now);
    await services.gdpr.requeueAbandonedExports(now);
  });
  await forgetRevokedMemories(deps, now, inUnit);
}

/** Asks the AI backend to forget the memory of every `ai_memory` revocation due at `now`; how many it confirmed. */
export async function forgetRevokedMemories(
  deps: Deps,
  now = new Date(),
  inUnit: InUnit | undefined = units.get(deps),
): Promise<number> {
  if (!inUnit) throw new Error('gdpr jobs are not defined for these deps');
  let done = 0;
  await inUnit(async (services) => {
    done = await services.gdpr.forgetRevokedMemories(now);
  });
  return done;
}

/** Runs every erasure due at `now` (a clock of the caller's, for tests); how many completed. */
export async function eraseDue(
  deps: Deps,
  now = new Date(),
  inUnit: InUnit | undefined = units.get(deps),
): Promise<number> {
  if (!inUnit) throw new Error('gdpr jobs are not defined for these deps');
  let due: string[] = [];
  await inUnit(async (services) => {
    due = await services.gdpr.dueErasures(now);
  });
  let completed = 0;
  for (const requestId of due) {
    try {
      if (await erase(deps, inUnit, requestId, now)) completed++;
    } catch (error) {
      deps.log.error({ err: error, requestId }, 'erasure stopped; the next sweep goes on from where it stopped');
    }
  }
  return completed;
}

/**
 * One erasure: the receipt first, then each area in one transaction of its own, last area first
 * (later areas build on earlier ones; the accounts area, which replaces the account by its
 * pseudonym, comes near the start of the list and so runs at the end). Each area's completion is
 * stored with its work, so a run that stops half way is taken up where it stopped.
 */
async function erase(deps: Deps, inUnit: InUnit, requestId: string, now: Date): Promise<boolean> {
  let claim: { owner: string; subjectId: string; pseudonym: string; done: Record<string, string> } | null = null;
  await inUnit(async (services) => {
    claim = await services.gdpr.claimErasure(requestId, now);
  });
  if (!claim) return false;
  const { owner, subjectId, pseudonym, done } = claim;
  try {
    await whileLeased(deps.config.JOBS_LOCK_LIFETIME_MS, renewal(inUnit, requestId, owner), async () => {
      await inUnit((services) => services.gdpr.sendReceiptOnce(requestId));
      for (const area of [...deps.areas].reverse()) {
        const eraseArea = area.personalData?.erase;
        if (!eraseArea || done[area.name] === 'done') continue;
        await inUnit((services, uow) =>
          uow.transaction(async () => {
            await eraseArea(subjectId, pseudonym, servicesOfArea(services, area.name), uow);
            await services.gdpr.markAreaErased(requestId, area.name);
          }),
        );
      }
    });
    await inUnit((services) => services.gdpr.completeErasure(requestId, owner));
    return true;
  } catch (error) {
    await inUnit((services) => services.gdpr.releaseErasure(requestId, owner, error));
    throw error;
  }
}

/** Renews the lease of a claimed request while its run (`owner`) works. */
const renewal = (inUnit: InUnit, requestId: string, owner: string) => () =>
  inUnit(async (services) => void (await services.gdpr.renewLease(requestId, owner)));

/**
 * Builds the ZIP: one JSON file per area, the certificate PDFs, a README and the manifest. A request
 * claimed by another run throws ClaimHeld (from claimExport), and the job comes back when that run's lease ends.
 */
async function runExport(deps: Deps, inUnit: InUnit, requestId: string, lastAttempt: boolean): Promise<void> {
  let run: { owner: string; subject: { id: string; locale: string } } | undefined;
  await inUnit(async (services) => {
    const claim = await services.gdpr.claimExport(requestId);
    if (claim) run = { owner: claim.owner, subject: claim.request.subject };
  });
  if (!run) return;
  const { owner, subject } = run;
  await whileLeased(deps.config.JOBS_LOCK_LIFETIME_MS, renewal(inUnit, requestId, owner), () =>
    buildExport(deps, inUnit, { requestId, owner }, subject, lastAttempt),
  );
}

async function buildExport(
  deps: Deps,
  inUnit: InUnit,
  { requestId, owner }: { requestId: string; owner: string },
  { id: subjectId, locale }: { id: string; locale: string },
  lastAttempt: boolean,
): Promise<void> {
  const path = exportFile(deps.config.DATA_DIR, requestId);
  const archive = await ExportArchive.create(path, owner);
  try {
    for (const area of deps.areas) {
      const exportArea = area.personalData?.export;
      if (!exportArea) continue;
      await inUnit(async (services, uow) => {
        await archive.json(`${area.name}.json`, await exportArea(subjectId, servicesOfArea(services, area.name), uow));
      });
    }
    await inUnit(async (services) => {
      for (const certificate of await services.certificates.listOf([subjectId])) {
        await archive.buffer(
          `certificates/${certificate.code}.pdf`,
          await services.certificates.pdf(subjectId, certificate.id),
        );
      }
    });
    await archive.buffer(readmeFile(locale), exportReadme(locale, archive.paths));
    await archive.finish({
      format: 'learning-platform-export/1',
      requestId,
      subjectId,
      locale,
      createdAt: new Date().toISOString(),
    });
  } catch (error) {
    await archive.abort();
    await inUnit((services) => services.gdpr.exportFailed(requestId, owner, error, lastAttempt));
    throw error;
  }
  await markExportReady(deps, requestId, owner, inUnit);
}

/**
 * The export's last step: ready and mailed in one commit, by the run that still holds the claim
 * (`owner`). A run that stalled past its lease and lost the export to another run leaves the marking
 * and the mail to that run; false then.
 */
export async function markExportReady(
  deps: Deps,
  requestId: string,
  owner: string,
  inUnit: InUnit | undefined = units.get(deps),
): Promise<boolean> {
  if (!inUnit) throw new Error('gdpr jobs are not defined for these deps');
  let marked = false;
  await inUnit((services, uow) =>
    uow.transaction(async () => {
      const request = await services.gdpr.exportReady(requestId, owner);
      if (!request) return;
      marked = true;
      const to = request.requester ?? request.subject;
      if (to.email.endsWith('.invalid')) return;
      const url = downloadUrl(deps.config, request.id, request.expiresAt!);
      await sendMail(uow, exportReadyMail(to.email, to.locale, request.subject.displayName, url, request.expiresAt!));
    }),
  );
  return marked;
}
