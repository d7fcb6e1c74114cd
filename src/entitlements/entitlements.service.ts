import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { homeOfAccount, raiseTierCte, setTier, type User } from '../auth';
import type { Deps } from '../kernel/deps';
import { regionHolding } from '../kernel/region-lookup';
import { includesTier, Role, Tier } from '../kernel/domain';
import { isId } from '../kernel/ids';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import {
  Entitlement,
  EntitlementKind,
  EntitlementRevokedReason,
  EntitlementSource,
  EntitlementStatus,
} from './entitlements.entity';
import { entitlementNotActive, entitlementNotFound, grantedUserNotFound, grantInvalid } from './entitlements.errors';

const isEditor = (user: User | null) => Boolean(user && (user.hasRole(Role.admin) || user.hasRole(Role.content_admin)));

/** What a paid product gives: a tier for a period, or courses. */
export type PurchaseGrant = { tier: Tier; interval: '1 month' | '1 year' } | { courseIds: string[] };

/**
 * The statements that grant a payment's entitlements, as common table expressions of the payment's
 * own statement (the webhook's hot path writes its success in one round trip). `param` adds a value
 * and answers its placeholder: placeholders are positional, so the SQL is written in push order.
 */
export function purchaseGrantCtes(
  uow: UnitOfWork,
  param: (value: unknown) => string,
  paymentId: string,
  beneficiaryId: string,
  grant: PurchaseGrant,
): string[] {
  if ('tier' in grant) {
    // A renewal runs on from the end of the current period (months counted in UTC, as the database does).
    return [
      `granted as (insert into entitlements (id, user_id, kind, tier, course_id, source, payment_id, granted_by, starts_at, ends_at, status, created_at)
          select gen_random_uuid(), ${param(beneficiaryId)}, 'tier', ${param(grant.tier)}, null, 'purchase', ${param(paymentId)}, null, now(),
            ((coalesce((select max(ends_at) from entitlements where user_id = ${param(beneficiaryId)} and kind = 'tier' and tier = ${param(grant.tier)} and status = 'active' and ends_at > now()), now())
              at time zone 'UTC') + ${param(grant.interval)}::interval) at time zone 'UTC', 'active', now() returning id)`,
      // The tier only rises with a new entitlement: the higher of the account's and the product's.
      raiseTierCte(uow, param, beneficiaryId, grant.tier),
    ];
  }
  if (!grant.courseIds.length) return [];
  return [
    `granted as (insert into entitlements (id, user_id, kind, tier, course_id, source, payment_id, granted_by, starts_at, ends_at, status, created_at)
          select gen_random_uuid(), ${param(beneficiaryId)}, 'course', null, c::uuid, 'purchase', ${param(paymentId)}, null, now(), null, 'active', now()
          from unnest(string_to_array(${param(grant.courseIds.join(','))}, ',')) c returning id)`,
  ];
}

/** Tiers and courses an account may use: from purchases (written by payments), grants and schools. */
export class EntitlementsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** This area's service on a region's database: this one for its own region. */
  private in(view: Deps): EntitlementsService {
    return view.region === this.uow.deps.region ? this : view.unit().services.entitlements;
  }

  /** The audit trail, in the acting transaction; the actions keep the names the trail has always had (`commerce.entitlement_granted`). */
  private async audit(
    actorId: string | null,
    action: string,
    id: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.services.audit.recordSellingAction(actorId, action, `entitlement:${id}`, data);
  }

  async entitlementsOf(userId: string): Promise<Entitlement[]> {
    return this.em.find(
      Entitlement,
      { user: userId },
      { orderBy: { createdAt: 'desc', id: 'desc' }, populate: ['payment'] },
    );
  }

  /** The user's own entitlements among these ids, as `entitlementsOf` lists them. */
  entitlementsByIds(userId: string, ids: string[]): Promise<Entitlement[]> {
    return this.em.find(Entitlement, { id: { $in: ids.filter(isId) }, user: userId }, { populate: ['payment'] });
  }

  /** The tier that the user's active entitlements give, written to the account at once (the AI area reads it there). */
  async recomputeTier(userId: string): Promise<Tier> {
    return this.uow.transaction(async (em) => {
      const now = new Date();
      const active = await em.find(Entitlement, {
        user: userId,
        kind: EntitlementKind.tier,
        status: EntitlementStatus.active,
        startsAt: { $lte: now },
        $or: [{ endsAt: null }, { endsAt: { $gt: now } }],
      });
      const tier = active.reduce((best, e) => (!includesTier(best, e.tier!) ? e.tier! : best), Tier.free);
      await setTier(this.uow, userId, tier);
      return tier;
    });
  }

  /**
   * Whether a course is sold: a published course or bundle product lists it (a platform product or
   * a creator's listing). Such a course opens (enrollment, lessons, progress) only with an
   * entitlement. Many courses asked for in one tick are read in one statement.
   */
  async isPaidCourse(courseId: string): Promise<boolean> {
    return isId(courseId) && this.paidCourseLoader().load(courseId);
  }

  /** Which of these courses are paid, as isPaidCourse answers each, in one statement. */
  async paidCourses(courseIds: string[]): Promise<Set<string>> {
    const ids = courseIds.filter(isId);
    const paid = await this.paidCourseLoader().loadMany(ids);
    const failure = paid.find((answer) => answer instanceof Error);
    if (failure) throw failure;
    return new Set(ids.filter((_, i) => paid[i] === true));
  }

  private paidCourseLoader() {
    return this.uow.loader<string, boolean>('commerce.paidCourses', async (ids) => {
      const rows = await this.uow.query<{ course_id: string }>(
        `select distinct course_id from courses_on_sale where course_id = any(?::uuid[])`,
        [`{${ids.join(',')}}`],
      );
      const paid = new Set(rows.map((r) => r.course_id));
      return ids.map((id) => paid.has(id));
    });
  }

  /**
   * May this person open the course? A free course: yes. A paid one: with an active course
   * entitlement (a learner's own, or what a guardian bought for them: its beneficiary is the
   * learner), and for the people who run it (admins, content admins, its author: a listing opens nothing to its seller).
   */
  async mayOpenCourse(viewer: User, courseId: string): Promise<boolean> {
    if (!(await this.isPaidCourse(courseId))) return true;
    if (isEditor(viewer)) return true;
    // The lessons of `nodes(ids:)` ask for their course one by one, in one tick: one statement for all.
    return this.uow
      .loader<string, boolean>(`entitlements.openCourses ${viewer.id}`, async (ids) => {
        const closed = new Set(await this.closedTo(viewer, [...ids]));
        return ids.map((id) => !closed.has(id));
      })
      .load(courseId);
  }

  /**
   * Of these courses, those the viewer may not open, as mayOpenCourse decides each: paid, and
   * neither held by an entitlement nor written by them (editors open all). A fixed number of
   * statements however many courses, for lists that leave closed courses' content out.
   */
  async closedTo(viewer: User | null, courseIds: string[]): Promise<string[]> {
    const paid = [...(await this.paidCourses(courseIds))];
    if (!paid.length || isEditor(viewer)) return [];
    if (!viewer) return paid;
    const list = `{${paid.join(',')}}`;
    const open = await this.uow.query<{ course_id: string }>(
      `select course_id from entitlements where user_id = ? and kind = 'course' and status = 'active' and (ends_at is null or ends_at > now()) and course_id = any(?::uuid[])
       union select course_id from courses_on_sale where author_id = ? and course_id = any(?::uuid[])`,
      [viewer.id, list, viewer.id, list],
    );
    const opened = new Set(open.map((row) => row.course_id));
    return paid.filter((id) => !opened.has(id));
  }

  /**
   * What a product sells from now on, in the caller's transaction: the catalog tells it whenever a
   * product is published, changed or withdrawn (none for a product not on sale), with each course's author.
   */
  async offer(productId: string, courses: { courseId: string; authorId: string | null }[]): Promise<void> {
    await this.uow.query('delete from courses_on_sale where product_id = ?', [productId]);
    if (!courses.length) return;
    const list = (values: (string | null)[]) => `{${values.map((value) => value ?? 'NULL').join(',')}}`;
    await this.uow.query(
      `insert into courses_on_sale (course_id, product_id, author_id) select c, ?::uuid, a from unnest(?::uuid[], ?::uuid[]) as sold(c, a)`,
      [productId, list(courses.map((c) => c.courseId)), list(courses.map((c) => c.authorId))],
    );
  }

  async grant(
    admin: User,
    input: {
      userId: string;
      kind: EntitlementKind;
      tier?: Tier | null;
      courseId?: string | null;
      endsAt?: Date | null;
    },
  ): Promise<Entitlement> {
    const problems = [];
    if (input.kind === EntitlementKind.tier && (!input.tier || input.tier === Tier.free))
      problems.push({ field: 'tier', message: 'a tier grant names starter or pro' });
    if (input.kind === EntitlementKind.course && (!input.courseId || !isId(input.courseId)))
      problems.push({ field: 'courseId', message: 'a course grant names a course' });
    if (input.endsAt && input.endsAt <= new Date())
      problems.push({ field: 'endsAt', message: 'must be in the future' });
    if (problems.length) throw grantInvalid(problems);
    if (!isId(input.userId)) throw grantedUserNotFound();
    // The account's entitlements are kept in its home region, whichever region the admin is of.
    const home = this.in(await homeOfAccount(this.uow.deps, input.userId));
    if (home !== this) return home.grant(admin, input);
    const user = await this.services.auth.findUser(input.userId);
    if (!user) throw grantedUserNotFound();
    return this.uow.transaction(async (em) => {
      const entitlement = em.create(Entitlement, {
        user,
        kind: input.kind,
        tier: input.kind === EntitlementKind.tier ? input.tier! : null,
        courseId: input.kind === EntitlementKind.course ? input.courseId! : null,
        source: EntitlementSource.grant,
        grantedBy: admin.id,
        endsAt: input.endsAt ?? null,
      });
      await this.audit(admin.id, 'entitlement.granted', entitlement.id, {
        userId: user.id,
        kind: input.kind,
        tier: input.tier,
        courseId: input.courseId,
      });
      await em.flush();
      await this.recomputeTier(user.id);
      return entitlement;
    });
  }

  async revoke(admin: User, id: string): Promise<Entitlement> {
    // Named by id alone: it is in its account's home region.
    const held = isId(id)
      ? await regionHolding(this.uow.deps, 'select 1 from entitlements where id = ? limit 1', [id])
      : null;
    if (held && held.region !== this.uow.deps.region) return this.in(held).revoke(admin, id);
    return this.uow.transaction(async (em) => {
      const entitlement = isId(id)
        ? await em.findOne(Entitlement, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        : null;
      if (!entitlement) throw entitlementNotFound();
      if (entitlement.status !== EntitlementStatus.active) throw entitlementNotActive(entitlement.status);
      entitlement.status = EntitlementStatus.revoked;
      entitlement.revokedReason = EntitlementRevokedReason.admin;
      await this.audit(admin.id, 'entitlement.revoked', entitlement.id, { userId: entitlement.user.id });
      await em.flush();
      await this.recomputeTier(entitlement.user.id);
      return entitlement;
    });
  }

  /** The sweep's part: entitlements past endsAt expire, and their accounts' tiers drop (in the caller's transaction). */
  async expireEnded(now: Date): Promise<number> {
    return this.uow.transaction(async (em) => {
      const ended = await em.execute<{ user_id: string; id: string }[]>(
        `update entitlements set status = 'expired' where status = 'active' and ends_at <= ? returning id, user_id`,
        [now],
      );
      for (const row of ended) await this.audit(null, 'entitlement.expired', row.id, { userId: row.user_id });
      await em.flush();
      for (const userId of new Set(ended.map((row) => row.user_id))) await this.recomputeTier(userId);
      return ended.length;
    });
  }

  /** A payment refunded or charged back in full: what it gave goes (in the caller's transaction). */
  async revokeOfPayment(
    paymentId: string,
    beneficiaryId: string,
    reason: EntitlementRevokedReason.refund | EntitlementRevokedReason.chargeback,
  ): Promise<void> {
    await this.em.nativeUpdate(
      Entitlement,
      { payment: paymentId, status: EntitlementStatus.active },
      { status: EntitlementStatus.revoked, revokedReason: reason },
    );
    await this.recomputeTier(beneficiaryId);
  }

  /** A dispute won: what its chargeback revoked comes back (not what an admin or a refund revoked, nor what has ended). */
  async restoreAfterChargeback(paymentId: string, beneficiaryId: string): Promise<void> {
    await this.em.nativeUpdate(
      Entitlement,
      {
        payment: paymentId,
        status: EntitlementStatus.revoked,
        revokedReason: EntitlementRevokedReason.chargeback,
        $or: [{ endsAt: null }, { endsAt: { $gt: new Date() } }],
      },
      { status: EntitlementStatus.active, revokedReason: null },
    );
    await this.recomputeTier(beneficiaryId);
  }
}
