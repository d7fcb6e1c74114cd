import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AccountStatus, type User } from '../auth';
import { isId } from '../kernel/ids';
import { ClaimHeld, leaseEnd } from '../kernel/lease';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { Services } from '../kernel/services';
import { type AdminRequestFilter, adminRequests } from './admin-requests';
import { OPEN } from './open-requests';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { sendMail } from '../mail/queue';
import { AppError } from '../kernel/errors';
import { GdprRequest, GdprRequestKind, GdprRequestStatus } from './gdpr-request.entity';
import { AiMemoryDeletion, MemoryDeletionStatus } from './memory-deletion.entity';
import { downloadUrl, pseudonymOf } from './gdpr.links';
import { deletionScheduledMail, erasureReceiptMail } from './gdpr.mails';
import type { GdprRequestView } from './gdpr.types';
import {
  erasureAlreadyScheduled,
  exportAlreadyRunning,
  onlyActiveGuardianAsks,
  onlyScheduledErasureCancels,
  unknownAccount,
  unknownRequest,
  wrongPassword,
} from './gdpr.errors';

export const EXPORT_JOB = 'gdpr: export';

export function exportFile(dataDir: string, requestId: string): string {
  return join(dataDir, 'gdpr-exports', `${requestId}.zip`);
}

/** A placeholder address (a child managed by a guardian) receives nothing. */
const canReceive = (email: string) => !email.endsWith('.invalid');

/**
 * Exports and erasures of personal data (docs/domain.md#privacy-operations): who may ask, the grace period, and the
 * bookkeeping of the jobs that do the work (gdpr.jobs.ts).
 */
export class GdprService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get config() {
    return this.uow.deps.config;
  }

  /** A run's hold on a request: the job's own lock, so both end together when the instance dies. */
  private get leaseMs(): number {
    return this.config.JOBS_LOCK_LIFETIME_MS;
  }

  present(request: GdprRequest, viewerId: string | null): GdprRequestView {
    const now = Date.now();
    const deadline = new Date(request.createdAt.getTime() + this.config.GDPR_LEGAL_DEADLINE_DAYS * 86_400_000);
    const open = OPEN.includes(request.status);
    const canDownload =
      request.kind === GdprRequestKind.export &&
      request.status === GdprRequestStatus.ready &&
      request.expiresAt !== null &&
      request.expiresAt.getTime() > now &&
      viewerId !== null &&
      (request.requester?.id === viewerId || request.subject.id === viewerId);
    return {
      id: request.id,
      kind: request.kind,
      status: request.status,
      subjectId: request.subject.id,
      requesterId: request.requester?.id ?? null,
      createdAt: request.createdAt,
      dueAt: request.dueAt,
      expiresAt: request.expiresAt,
      downloadUrl: canDownload ? downloadUrl(this.config, request.id, request.expiresAt!) : null,
      completedAt: request.completedAt,
      deadline,
      nearDeadline: open && deadline.getTime() - now <= this.config.GDPR_DEADLINE_WARNING_DAYS * 86_400_000,
    };
  }

  /** The caller themselves, or a learner the caller is an active guardian of. */
  private async subjectFor(viewerId: string, learnerId: string | null): Promise<User> {
    if (learnerId && learnerId !== viewerId) {
      if (!(await this.services.guardian.isActiveGuardianOf(viewerId, learnerId))) throw onlyActiveGuardianAsks();
    }
    const subject = await this.services.auth.findUser(learnerId ?? viewerId);
    if (!subject) throw unknownAccount();
    return subject;
  }

  async requestExport(viewerId: string, learnerId: string | null): Promise<GdprRequest> {
    const subject = await this.subjectFor(viewerId, learnerId);
    return this.uow.transaction(async (em) => {
      // One export at a time per account: asked twice at once, the second waits for the lock and sees the first.
      await this.services.accounts.lockAccount(subject.id);
      const running = await em.count(GdprRequest, {
        subject,
        kind: GdprRequestKind.export,
        status: { $in: [GdprRequestStatus.queued, GdprRequestStatus.running] },
      });
      if (running) throw exportAlreadyRunning();
      const request = em.create(GdprRequest, {
        kind: GdprRequestKind.export,
        subject,
        requester: viewerId,
      });
      await em.flush();
      await this.uow.enqueue({ kind: 'job', name: EXPORT_JOB, payload: { requestId: request.id } });
      return request;
    });
  }

  async requestDeletion(viewerId: string, learnerId: string | null, password: string): Promise<GdprRequest> {
    const requester = await this.services.auth.findUser(viewerId);
    if (!requester || !(await this.services.accounts.passwordMatches(requester, password))) throw wrongPassword();
    const subject = await this.subjectFor(viewerId, learnerId);
    const request = await this.uow.transaction(async (em) => {
      const locked = await this.services.accounts.lockAccount(subject.id);
      if (!locked) throw unknownAccount();
      if (locked.status === AccountStatus.deletion_pending || locked.status === AccountStatus.erased)
        throw erasureAlreadyScheduled();
      const dueAt = new Date(Date.now() + this.config.GDPR_DELETION_GRACE_DAYS * 86_400_000);
      const created = em.create(GdprRequest, {
        kind: GdprRequestKind.deletion,
        status: GdprRequestStatus.scheduled,
        subject: locked,
        requester: viewerId,
        dueAt,
        previousStatus: locked.status,
      });
      this.services.accounts.markForErasure(locked);
      try {
        await em.flush();
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw erasureAlreadyScheduled();
        throw error;
      }
      // Every session of the account ends: refresh tokens stop working at once.
      await this.services.auth.endSessions(em, locked.id);
      const recipients = [...new Set([subject.email, requester.email].filter(canReceive))];
      await sendMail(
        this.uow,
        ...recipients.map((to) =>
          deletionScheduledMail(
            to,
            to === subject.email ? subject.locale : requester.locale,
            subject.displayName,
            dueAt,
          ),
        ),
      );
      return created;
    });
    this.services.auth.publishAccountChanged(subject.id);
    return request;
  }

  private visibleTo(viewerId: string) {
    return { $or: [{ requester: viewerId }, { subject: viewerId }] };
  }

  async list(viewerId: string, first: number, after?: string | null): Promise<Page<GdprRequest>> {
    const rows = await this.em.find(
      GdprRequest,
      { $and: [this.visibleTo(viewerId), afterCursor(after)] },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(GdprRequest, this.visibleTo(viewerId)));
  }

  async find(viewerId: string, id: string): Promise<GdprRequest> {
    const request = isId(id) ? await this.em.findOne(GdprRequest, { $and: [{ id }, this.visibleTo(viewerId)] }) : null;
    if (!request) throw unknownRequest();
    return request;
  }

  /** The requests among these ids that the viewer made or that concern them, as `find` reads one (the graph's `nodes`). */
  findMany(viewerId: string, ids: string[]): Promise<GdprRequest[]> {
    return this.em.find(GdprRequest, { $and: [{ id: { $in: ids.filter(isId) } }, this.visibleTo(viewerId)] });
  }

  /** Cancels a scheduled erasure: by whoever asked, the account itself, or one of its active guardians. */
  async cancel(viewerId: string, id: string): Promise<GdprRequest> {
    if (!isId(id)) throw unknownRequest();
    const request = await this.uow.transaction(async (em) => {
      const found = await em.findOne(GdprRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw unknownRequest();
      const allowed =
        found.requester?.id === viewerId ||
        found.subject.id === viewerId ||
        (await this.services.guardian.isActiveGuardianOf(viewerId, found.subject.id));
      if (!allowed) throw unknownRequest();
      if (found.kind !== GdprRequestKind.deletion || found.status !== GdprRequestStatus.scheduled)
        throw onlyScheduledErasureCancels();
      found.status = GdprRequestStatus.canceled;
      found.canceledAt = new Date();
      const subject = await this.services.accounts.lockAccount(found.subject.id);
      if (subject)
        this.services.accounts.restore(subject, (found.previousStatus as AccountStatus | null) ?? AccountStatus.active);
      await em.flush();
      return found;
    });
    return request;
  }

  /** Every region's requests, newest first: each is kept with its subject's account, in its home region. */
  adminList(first: number, after: string | null | undefined, filter: AdminRequestFilter): Promise<Page<GdprRequest>> {
    return adminRequests(this.uow, first, after, filter);
  }

  // ----- the export job's steps -----

  /**
   * Takes the export for this run, under a claim of its own (`owner`); null when there is nothing
   * left to do (ready, canceled, gone). While another run's lease lasts, ClaimHeld: that run may
   * have died, so the job comes back then.
   */
  async claimExport(requestId: string, now = new Date()): Promise<{ request: GdprRequest; owner: string } | null> {
    const owner = randomUUID();
    const claimed = await this.em.nativeUpdate(
      GdprRequest,
      {
        id: requestId,
        kind: GdprRequestKind.export,
        $or: [
          { status: GdprRequestStatus.queued },
          { status: GdprRequestStatus.running, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
        ],
      },
      { status: GdprRequestStatus.running, leaseUntil: leaseEnd(this.leaseMs, now), leaseOwner: owner },
    );
    const request = await this.em.findOne(
      GdprRequest,
      { id: requestId },
      { populate: ['subject', 'requester'], refresh: true },
    );
    if (claimed && request) return { request, owner };
    if (request?.status === GdprRequestStatus.running && request.leaseUntil) throw new ClaimHeld(request.leaseUntil);
    return null;
  }

  /**
   * Keeps a claimed export or erasure this run's while it works (a renewal of its lease); false when
   * another run has taken it over meanwhile, whose lease is not this run's to extend.
   */
  async renewLease(requestId: string, owner: string): Promise<boolean> {
    const renewed = await this.em.nativeUpdate(
      GdprRequest,
      { id: requestId, status: GdprRequestStatus.running, leaseOwner: owner },
      { leaseUntil: leaseEnd(this.leaseMs) },
    );
    return renewed > 0;
  }

  /**
   * Exports whose run died and whose lease ran out with no run taking them over (their job was
   * lost, or ended as done when an earlier version found the claim held): each gets a job again, its
   * lease cleared in the same commit so the next sweep leaves it to that job. A job still there
   * besides it finds the request claimed or done.
   */
  async requeueAbandonedExports(now = new Date()): Promise<number> {
    return this.uow.transaction(async (em) => {
      const abandoned = (await em.execute(
        `update gdpr_requests set lease_until = null, lease_owner = null where kind = 'export' and status = 'running' and lease_until < ? returning id`,
        [now],
      )) as { id: string }[];
      if (abandoned.length)
        await this.uow.enqueue(
          ...abandoned.map(({ id }) => ({ kind: 'job', name: EXPORT_JOB, payload: { requestId: id } })),
        );
      return abandoned.length;
    });
  }

  /**
   * Marks the export ready if this run (`owner`) still holds it; null when it does not: a run that
   * stalled past its lease lost the export to another run, which marks it ready and mails it.
   */
  async exportReady(requestId: string, owner: string, now = new Date()): Promise<GdprRequest | null> {
    const marked = await this.em.nativeUpdate(
      GdprRequest,
      { id: requestId, status: GdprRequestStatus.running, leaseOwner: owner },
      {
        status: GdprRequestStatus.ready,
        completedAt: now,
        expiresAt: new Date(now.getTime() + this.config.GDPR_EXPORT_TTL_HOURS * 3_600_000),
        leaseUntil: null,
        leaseOwner: null,
      },
    );
    if (!marked) return null;
    return this.em.findOneOrFail(GdprRequest, { id: requestId }, { populate: ['subject', 'requester'], refresh: true });
  }

  /** A failed run lets the next take the export at once, unless another run holds it by now. */
  async exportFailed(requestId: string, owner: string, error: unknown, final: boolean): Promise<void> {
    await this.em.nativeUpdate(
      GdprRequest,
      { id: requestId, leaseOwner: owner },
      // No key may be undefined: MikroORM writes it as NULL (attempts is not null), the update failed,
      // and the request stayed `running` under its lease with no job left to retry it.
      {
        leaseUntil: null,
        leaseOwner: null,
        error: String((error as Error)?.message ?? error).slice(0, 500),
        ...(final ? { status: GdprRequestStatus.failed, attempts: 0 } : {}),
      },
    );
  }

  /** Export files past their expiry are deleted; the request keeps its history. */
  async removeExpiredExports(now = new Date()): Promise<number> {
    const expired = await this.em.find(GdprRequest, {
      kind: GdprRequestKind.export,
      status: GdprRequestStatus.ready,
      expiresAt: { $lte: now },
    });
    for (const request of expired) {
      await rm(exportFile(this.config.DATA_DIR, request.id), { force: true });
      request.status = GdprRequestStatus.completed;
    }
    await this.em.flush();
    return expired.length;
  }

  // ----- the erasure job's steps -----

  async dueErasures(now = new Date()): Promise<string[]> {
    const rows = await this.em.find(
      GdprRequest,
      {
        kind: GdprRequestKind.deletion,
        dueAt: { $lte: now },
        $or: [
          { status: GdprRequestStatus.scheduled },
          { status: GdprRequestStatus.running, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
        ],
      },
      { fields: ['id'], orderBy: { dueAt: 'asc' } },
    );
    return rows.map((row) => row.id);
  }

  /** Takes a due erasure for this run (`owner`, its claim); the subject's id and pseudonym, or null when another run has it. */
  async claimErasure(
    requestId: string,
    now = new Date(),
  ): Promise<{ owner: string; subjectId: string; pseudonym: string; done: Record<string, string> } | null> {
    const owner = randomUUID();
    const claimed = await this.em.nativeUpdate(
      GdprRequest,
      {
        id: requestId,
        kind: GdprRequestKind.deletion,
        dueAt: { $lte: now },
        $or: [
          { status: GdprRequestStatus.scheduled },
          { status: GdprRequestStatus.running, $or: [{ leaseUntil: null }, { leaseUntil: { $lt: now } }] },
        ],
      },
      { status: GdprRequestStatus.running, leaseUntil: leaseEnd(this.leaseMs), leaseOwner: owner },
    );
    if (!claimed) return null;
    const request = await this.em.findOneOrFail(GdprRequest, { id: requestId }, { refresh: true });
    return {
      owner,
      subjectId: request.subject.id,
      pseudonym: pseudonymOf(this.config.JWT_SECRET, request.subject.id),
      done: request.progress.areas ?? {},
    };
  }

  /** The receipt goes out before anything is erased (the address is gone after), once. */
  async sendReceiptOnce(requestId: string): Promise<void> {
    const request = await this.em.findOneOrFail(
      GdprRequest,
      { id: requestId },
      { populate: ['subject', 'requester'], refresh: true },
    );
    if (request.progress.receiptSent) return;
    const { subject, requester } = request;
    const recipients = new Map<string, string>();
    if (canReceive(subject.email)) recipients.set(subject.email, subject.locale);
    if (requester && requester.id !== subject.id && canReceive(requester.email))
      recipients.set(requester.email, requester.locale);
    for (const [to, locale] of recipients)
      await this.uow.deps.mailer.send(erasureReceiptMail(to, locale, subject.displayName, request.id));
    await this.em.execute(
      `update gdpr_requests set progress = jsonb_set(progress, '{receiptSent}', 'true') where id = ?`,
      [requestId],
    );
  }

  /** Records one area as erased, in that area's transaction. */
  async markAreaErased(requestId: string, area: string): Promise<void> {
    await this.em.execute(
      `update gdpr_requests set progress = jsonb_set(progress, '{areas}', coalesce(progress->'areas', '{}') || jsonb_build_object(?::text, 'done'), true) where id = ?`,
      [area, requestId],
    );
  }

  async completeErasure(requestId: string, owner: string): Promise<void> {
    await this.em.nativeUpdate(
      GdprRequest,
      { id: requestId, leaseOwner: owner },
      {
        status: GdprRequestStatus.completed,
        completedAt: new Date(),
        leaseUntil: null,
        leaseOwner: null,
        previousStatus: null,
        error: null,
      },
    );
  }

  /** A run that failed lets the next one take the request at once; what was erased stays erased. */
  async releaseErasure(requestId: string, owner: string, error: unknown): Promise<void> {
    await this.em.nativeUpdate(
      GdprRequest,
      { id: requestId, leaseOwner: owner },
      { leaseUntil: null, leaseOwner: null, error: String((error as Error)?.message ?? error).slice(0, 500) },
    );
  }

  // ----- forgetting AI memory when ai_memory is revoked -----

  /**
   * A revocation of `ai_memory`, as the consent area announced it (once through the outbox, or again
   * after a crash): the backend is to be asked to forget, once per ledger entry.
   */
  async memoryRevoked(ledgerEntryId: string, subjectId: string): Promise<void> {
    await this.em.execute(
      `insert into ai_memory_deletions (ledger_entry_id, subject_id, status, attempts, next_attempt_at, created_at)
       values (?, ?, 'pending', 0, now(), now()) on conflict do nothing`,
      [ledgerEntryId, subjectId],
    );
  }

  /** Asks the AI backend to forget the memory of each pending revocation whose time has come; answers and failures are kept. */
  async forgetRevokedMemories(now = new Date()): Promise<number> {
    const due = await this.em.find(
      AiMemoryDeletion,
      { status: MemoryDeletionStatus.pending, nextAttemptAt: { $lte: now } },
      { populate: ['subject'], limit: 100, orderBy: { nextAttemptAt: 'asc' } },
    );
    let done = 0;
    for (const deletion of due) {
      deletion.attempts += 1;
      try {
        await this.services.ai.forgetMemory(deletion.subject, `gdpr-memory-${deletion.ledgerEntryId}`);
        deletion.lastAnswer = '2xx';
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found') {
          deletion.lastAnswer = '404';
        } else {
          deletion.lastAnswer = error instanceof AppError ? error.code : 'error';
          deletion.lastError = String((error as Error)?.message ?? error).slice(0, 500);
          const delay = Math.min(this.config.GDPR_AI_RETRY_DELAY_MS * 2 ** (deletion.attempts - 1), 3_600_000);
          deletion.nextAttemptAt = new Date(now.getTime() + delay);
          continue;
        }
      }
      deletion.status = MemoryDeletionStatus.done;
      deletion.doneAt = new Date();
      deletion.lastError = null;
      done++;
    }
    await this.em.flush();
    return done;
  }
}
