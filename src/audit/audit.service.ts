import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { acrossRegions, type RegionPart } from '../kernel/region-pages';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { AuditEntry } from './audit-entry.entity';

export interface AuditRecord {
  /** The person acting (a viewer, a user id), or null for the command line and the system. */
  actor: { id: string } | string | null;
  action: string;
  target?: { type: string; id: string } | null;
  data?: Record<string, unknown>;
}

export interface AuditFilter {
  actorId?: string | null;
  action?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  since?: Date | null;
  until?: Date | null;
}

/**
 * The audit trail: every area records its privileged actions here, in its own transaction (the
 * entry commits or rolls back with the action), and admins read them in one place.
 */
export class AuditService {
  constructor(private readonly uow: UnitOfWork) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** Adds an entry in the caller's transaction (or one of its own outside one). */
  async record(entry: AuditRecord): Promise<AuditEntry> {
    const actorId = typeof entry.actor === 'string' ? entry.actor : (entry.actor?.id ?? null);
    return this.uow.transaction(async (em) => {
      const row = em.create(AuditEntry, {
        actor: actorId,
        action: entry.action,
        targetType: entry.target?.type ?? null,
        targetId: entry.target?.id ?? null,
        data: entry.data ?? {},
      });
      await em.flush();
      return row;
    });
  }

  /**
   * A selling action (catalog, entitlements, payments) under the names the trail has always had:
   * `payment.succeeded` on `payment:<id>` is recorded as `commerce.payment_succeeded`.
   */
  recordSellingAction(
    actorId: string | null,
    action: string,
    target: string,
    data: Record<string, unknown> = {},
  ): Promise<AuditEntry> {
    const at = target.indexOf(':');
    return this.record({
      actor: actorId,
      action: `commerce.${action.replace('.', '_')}`,
      target: { type: target.slice(0, at), id: target.slice(at + 1) },
      data,
    });
  }

  /** The newest entry of this action on this target (what a suspension recorded, when it is lifted). */
  latest(action: string, targetId: string): Promise<AuditEntry | null> {
    return this.em.findOne(AuditEntry, { action, targetId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** The entries among these ids (the graph's `nodes`; admins only, by the rule of `auditEntries`). */
  byIds(ids: string[]): Promise<AuditEntry[]> {
    return this.em.find(AuditEntry, { id: { $in: ids.filter(isId) } });
  }

  /** Every region's entries, newest first: an action is recorded where it was done (on an account, in its home region). */
  list(filter: AuditFilter, first: number, after?: string | null): Promise<Page<AuditEntry>> {
    if (filter.actorId && !isId(filter.actorId)) return Promise.resolve(toPage([], first, after, 0));
    const { deps } = this.uow;
    return acrossRegions(deps, first, after, (view) =>
      (view.region === deps.region ? this : view.unit().services.audit).listHere(filter, first, after),
    );
  }

  /** This region's part of the trail's list. */
  async listHere(filter: AuditFilter, first: number, after?: string | null): Promise<RegionPart<AuditEntry>> {
    const where: FilterQuery<AuditEntry> = {};
    if (filter.actorId) where.actor = filter.actorId;
    if (filter.action) where.action = filter.action;
    if (filter.targetType) where.targetType = filter.targetType;
    if (filter.targetId) where.targetId = filter.targetId;
    if (filter.since || filter.until) {
      const range: Record<string, Date> = {};
      if (filter.since) range.$gte = filter.since;
      if (filter.until) range.$lt = filter.until;
      // Combined with the cursor's own condition on createdAt through $and.
      (where as Record<string, unknown>).$and = [{ createdAt: range }];
    }
    const rows = await this.em.find(
      AuditEntry,
      { ...where, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return { rows, count: () => this.em.count(AuditEntry, where) };
  }
}
