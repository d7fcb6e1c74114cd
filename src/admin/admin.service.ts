import { type FilterQuery, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { AuthService } from '../auth';
import { AccountStatus, normaliseEmail, Role, User } from '../auth';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { AuditService } from '../audit';
import type { PaymentsService } from '../payments';
import { RoleChange, RoleChangeAction } from './role-change.entity';
import { alreadySuspended, cannotSuspendSelf, lastAdmin, notSuspended, unknownUser } from './admin.errors';

export interface PlatformStats {
  usersByRole: { role: string; count: number }[];
  usersByStatus: { status: string; count: number }[];
  activeLearners7d: number;
  activeLearners30d: number;
  enrollments: number;
  certificates: number;
  aiMessagesToday: number;
  revenueThisMonth: { currency: string; amount: number }[];
}

export interface UserFilter {
  role?: Role | null;
  status?: AccountStatus | null;
  /** Part of the address, case-insensitive. */
  email?: string | null;
}

export class AdminService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly auth: AuthService,
    private readonly audit: AuditService,
    private readonly payments: PaymentsService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  async listUsers(filter: UserFilter, first: number, after?: string | null): Promise<Page<User>> {
    const where: FilterQuery<User> = {};
    if (filter.role) where.roles = { $contains: [filter.role] };
    if (filter.status) where.status = filter.status;
    if (filter.email) where.email = { $like: `%${escapeLike(normaliseEmail(filter.email))}%` };
    const rows = await this.em.find(User, { ...where, ...afterCursor(after) }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return toPage(rows, first, after, () => this.em.count(User, where));
  }

  async grantRole(actor: User | null, userId: string, role: Role): Promise<User> {
    return this.changeRole(actor, userId, role, RoleChangeAction.granted);
  }

  async removeRole(actor: User | null, userId: string, role: Role): Promise<User> {
    return this.changeRole(actor, userId, role, RoleChangeAction.removed);
  }

  roleChanges(userId: string): Promise<RoleChange[]> {
    return this.uow.children(
      'admin.roleChanges',
      userId,
      (users) => this.em.find(RoleChange, { user: { $in: users } }, { orderBy: { createdAt: 'desc' }, populate: ['actor'] }),
      (change) => change.user.id,
    );
  }

  /** The role changes among these ids (the graph's `nodes`; admins only, by the rule of `User.roleChanges`). */
  roleChangesByIds(ids: string[]): Promise<RoleChange[]> {
    return this.em.find(RoleChange, { id: { $in: ids.filter(isId) } });
  }

  /** For `admin:create`: makes the account an admin, creating it first if needed. */
  async ensureAdmin(email: string, password: string): Promise<{ user: User; created: boolean }> {
    const existing = await this.auth.findUserByEmail(email);
    if (existing) {
      if (!existing.hasRole(Role.admin)) await this.grantRole(null, existing.id, Role.admin);
      return { user: existing, created: false };
    }
    const user = await this.auth.createVerifiedUser(email, password, 'Administrator', Role.admin);
    this.em.create(RoleChange, { user, actor: null, role: Role.admin, action: RoleChangeAction.granted });
    await this.em.flush();
    await this.audit.record({ actor: null, action: 'admin.role_granted', target: { type: 'user', id: user.id }, data: { role: Role.admin, via: 'command line' } });
    return { user, created: true };
  }

  /**
   * Suspends an account: log-in and every token are refused from now on (the permission rules read
   * the account on each request), and every refresh token is revoked in the same transaction.
   */
  async suspend(actor: User | null, userId: string, request: SuspensionRequest = {}): Promise<User> {
    if (!isId(userId)) throw unknownUser();
    if (actor?.id === userId) throw cannotSuspendSelf();
    const user = await this.uow.transaction(async (em) => {
      const target = await em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!target) throw unknownUser();
      if (target.status === AccountStatus.suspended) throw alreadySuspended();
      const previousStatus = target.status;
      target.status = AccountStatus.suspended;
      await this.auth.endSessions(em, target.id, { suspended: true });
      await this.audit.record({ actor, action: 'admin.user_suspended', target: { type: 'user', id: target.id }, data: { previousStatus, reason: request.reason ?? null } });
      return target;
    });
    this.auth.publishAccountChanged(user.id);
    return user;
  }

  /** Lifts a suspension, back to the status the account had before it (active or pending_guardian). */
  async reactivate(actor: User | null, userId: string): Promise<User> {
    if (!isId(userId)) throw unknownUser();
    const user = await this.uow.transaction(async (em) => {
      const target = await em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!target) throw unknownUser();
      if (target.status !== AccountStatus.suspended) throw notSuspended();
      const suspension = await this.audit.latest('admin.user_suspended', target.id);
      const previous = suspension?.data.previousStatus;
      target.status = previous === AccountStatus.pending_guardian ? AccountStatus.pending_guardian : AccountStatus.active;
      await this.audit.record({ actor, action: 'admin.user_reactivated', target: { type: 'user', id: target.id }, data: { status: target.status } });
      return target;
    });
    this.auth.publishAccountChanged(user.id);
    this.auth.publishSuspensionLifted(user.id);
    return user;
  }

  /** The platform's figures in one round trip, and the month's revenue from the ledger. */
  async stats(): Promise<PlatformStats> {
    const [row] = await this.em.execute<Record<string, unknown>[]>(`
      select
        (select coalesce(json_agg(json_build_object('role', role, 'count', n) order by role), '[]') from (select unnest(roles) as role, count(*)::int as n from users group by 1) r) as by_role,
        (select coalesce(json_agg(json_build_object('status', status, 'count', n) order by status), '[]') from (select status, count(*)::int as n from users group by 1) s) as by_status,
        (select count(distinct learner_id)::int from (
          select learner_id from lesson_completions where completed_at > now() - interval '7 days'
          union all select learner_id from quiz_attempts where created_at > now() - interval '7 days'
          union all select user_id from ai_usage where day > current_date - 7 and messages > 0) a) as active7,
        (select count(distinct learner_id)::int from (
          select learner_id from lesson_completions where completed_at > now() - interval '30 days'
          union all select learner_id from quiz_attempts where created_at > now() - interval '30 days'
          union all select user_id from ai_usage where day > current_date - 30 and messages > 0) a) as active30,
        (select count(*)::int from enrollments) as enrollments,
        (select count(*)::int from certificates) as certificates,
        (select coalesce(sum(messages), 0)::int from ai_usage where day = (now() at time zone 'utc')::date) as ai_today,
        date_trunc('month', now()) as month_start`);
    return {
      usersByRole: row.by_role as PlatformStats['usersByRole'],
      usersByStatus: row.by_status as PlatformStats['usersByStatus'],
      activeLearners7d: row.active7 as number,
      activeLearners30d: row.active30 as number,
      enrollments: row.enrollments as number,
      certificates: row.certificates as number,
      aiMessagesToday: row.ai_today as number,
      revenueThisMonth: await this.payments.revenueSince(row.month_start as Date),
    };
  }

  /**
   * Changes one role under a row lock, so two admins acting at once cannot, for instance, both
   * remove the admin role from each other and leave the platform without an admin.
   */
  private async changeRole(actor: User | null, userId: string, role: Role, action: RoleChangeAction): Promise<User> {
    if (!isId(userId)) throw unknownUser();
    const user = await this.uow.transaction(async (em) => {
      if (role === Role.admin && action === RoleChangeAction.removed) await em.execute('lock table users in share row exclusive mode');
      const target = await em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!target) throw unknownUser();
      const has = target.hasRole(role);
      if ((action === RoleChangeAction.granted) === has) return target;
      if (role === Role.admin && action === RoleChangeAction.removed && (await em.count(User, { roles: { $contains: [Role.admin] } })) <= 1) {
        throw lastAdmin();
      }
      target.roles = action === RoleChangeAction.granted ? [...target.roles, role] : target.roles.filter((r) => r !== role);
      em.create(RoleChange, { user: target, actor: actor ? em.getReference(User, actor.id) : null, role, action });
      await this.audit.record({ actor, action: `admin.role_${action}`, target: { type: 'user', id: target.id }, data: { role } });
      return target;
    });
    this.auth.publishAccountChanged(user.id);
    return user;
  }
}

export const SUSPEND_REASON_MAX = 500;

/** Suspension and reactivation, recorded in the audit trail. */
export interface SuspensionRequest {
  reason?: string | null;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
