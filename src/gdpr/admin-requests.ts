import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../kernel/deps';
import { afterCursor, type Page } from '../kernel/pagination';
import { acrossRegions, type RegionPart } from '../kernel/region-pages';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { GdprRequest, type GdprRequestStatus } from './gdpr-request.entity';
import { OPEN } from './open-requests';

/** Which requests an admin lists: of a status, or open and due within some days of the legal deadline. */
export interface AdminRequestFilter {
  status: GdprRequestStatus | null;
  dueWithinDays: number | null;
}

/** The admins' list: every region's requests merged newest first (a request is kept in its subject's home region). */
export function adminRequests(
  uow: UnitOfWork,
  first: number,
  after: string | null | undefined,
  filter: AdminRequestFilter,
): Promise<Page<GdprRequest>> {
  return acrossRegions(uow.deps, first, after, (view) =>
    requestsIn(view.region === uow.deps.region ? uow.em : view.unit().uow.em, view, first, after, filter),
  );
}

async function requestsIn(
  em: EntityManager,
  deps: Deps,
  first: number,
  after: string | null | undefined,
  { status, dueWithinDays }: AdminRequestFilter,
): Promise<RegionPart<GdprRequest>> {
  const where: Record<string, unknown>[] = [];
  if (status) where.push({ status });
  if (dueWithinDays !== null) {
    const cutoff = new Date(Date.now() - (deps.config.GDPR_LEGAL_DEADLINE_DAYS - dueWithinDays) * 86_400_000);
    where.push({ status: { $in: OPEN }, createdAt: { $lte: cutoff } });
  }
  const rows = await em.find(
    GdprRequest,
    { $and: [...where, afterCursor(after)] },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
  );
  return { rows, count: () => em.count(GdprRequest, { $and: where }) };
}
