import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Services } from '../kernel/services';
import { type AccountFilter, AccountStatus, homeOfAccount, Role, type User } from '../auth';
import { isId } from '../kernel/ids';
import type { Page } from '../kernel/pagination';
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

/** One region's figures: all but the revenue, which the ledgers of every region give at once. */
type RegionStats = Omit<PlatformStats, 'revenueThisMonth'>;

export class AdminService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get auth() {
    return this.services.auth;
  }

  private get audit() {
    return this.services.audit;
  }

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * This service, or that of the account's home region when it is another's: an action on an account
   * is done, and recorded, where the account's rows are.
   */
  private async atHomeOf(userId: string): Promise<AdminService> {
    const home = await homeOfAccount(this.uow.deps, userId);
    return home.region === this.uow.deps.region ? this : home.unit().services.admin;
  }

  listUsers(filter: AccountFilter, first: number, after?: string | null): Promise<Page<User>> {
    return this.services.accounts.list(filter, first, after);
  }

  async grantRole(actor: User | null, userId: string, role: Role): Promise<User> {
    return this.changeRole(actor, userId, role, RoleChangeAction.granted);
  }

  async removeRole(actor: User | null, userId: string, role: Role): Promise<User> {
    return this.changeRole(actor, userId, role, RoleChangeAction.removed);
  }

  /** The account's role changes, newest first, read in its home region's database, where they are kept. */
  roleChanges(user: User): Promise<RoleChange[]> {
    const { deps } = this.uow;
    const home = () => (user.region === deps.region ? this.em : deps.inRegion(user.region).unit().uow.em);
    return this.uow.children(
      `admin.roleChanges.${user.region}`,
      user.id,
      (users) => home().find(RoleChange, { user: { $in: users } }, { orderBy: { createdAt: 'desc' } }),
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
    await this.audit.record({
      actor: null,
      action: 'admin.role_granted',
      target: { type: 'user', id: user.id },
      data: { role: Role.admin, via: 'command line' },
    });
    return { user, created: true };
  }

  /**
   * Suspends an account: log-in and every token are refused from now on (the permission rules read
   * the account on each request), and every refresh token is revoked in the same transaction.
   */
  async suspend(actor: User | null, userId: string, request: SuspensionRequest = {}): Promise<User> {
    if (!isId(userId)) throw unknownUser();
    if (actor?.id === userId) throw cannotSuspendSelf();
    const home = await this.atHomeOf(userId);
    if (home !== this) return home.suspend(actor, userId, request);
    return this.uow.transaction(async () => {
      const target = await this.services.accounts.lockAccount(userId);
      if (!target) throw unknownUser();
      if (target.status === AccountStatus.suspended) throw alreadySuspended();
      const previousStatus = await this.services.accounts.suspend(target);
      await this.audit.record({
        actor,
        action: 'admin.user_suspended',
        target: { type: 'user', id: target.id },
        data: { previousStatus, reason: request.reason ?? null },
      });
      return target;
    });
  }

  /** Lifts a suspension, back to the status the account had before it (active or pending_guardian). */
  async reactivate(actor: User | null, userId: string): Promise<User> {
    if (!isId(userId)) throw unknownUser();
    const home = await this.atHomeOf(userId);
    if (home !== this) return home.reactivate(actor, userId);
    const user = await this.uow.transaction(async () => {
      const target = await this.services.accounts.lockAccount(userId);
      if (!target) throw unknownUser();
      if (target.status !== AccountStatus.suspended) throw notSuspended();
      const suspension = await this.audit.latest('admin.user_suspended', target.id);
      const previous = suspension?.data.previousStatus;
      this.services.accounts.restore(
        target,
        previous === AccountStatus.pending_guardian ? AccountStatus.pending_guardian : AccountStatus.active,
      );
      await this.audit.record({
        actor,
        action: 'admin.user_reactivated',
        target: { type: 'user', id: target.id },
        data: { status: target.status },
      });
      return target;
    });
    this.auth.publishSuspensionLifted(user.id);
    return user;
  }

  /**
   * The platform's figures: each region's, added up (an account and its activity are in one region
   * only), and the month's revenue, which the payments area reads from every region's ledger.
   */
  async stats(): Promise<PlatformStats> {
    const { deps } = this.uow;
    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const [parts, revenueThisMonth] = await Promise.all([
      Promise.all(
        deps.regions.map((view) => (view.region === deps.region ? this : view.unit().services.admin).statsHere()),
      ),
      this.services.payments.revenueSince(monthStart),
    ]);
    return { ...addStats(parts), revenueThisMonth };
  }

  /**
   * This region's figures, each from the area that keeps it, read at once: accounts, enrollments,
   * certificates, the tutor's messages, and active learners from the activity that progress and the
   * AI declare (views), counted once across both.
   */
  async statsHere(): Promise<RegionStats> {
    const [accounts, active, enrollments, issued, aiMessagesToday] = await Promise.all([
      this.services.auth.accountCounts(),
      this.uow.query<{ active7: number; active30: number }>(`
        select
          (select count(distinct learner_id)::int from (
            select learner_id from learner_activity where at > now() - interval '7 days'
            union all select learner_id from ai_learner_activity where day > current_date - 7) a) as active7,
          (select count(distinct learner_id)::int from (
            select learner_id from learner_activity where at > now() - interval '30 days'
            union all select learner_id from ai_learner_activity where day > current_date - 30) a) as active30`),
      this.services.courses.enrollmentCount(),
      this.services.certificates.issuedCount(),
      this.services.ai.messagesToday(),
    ]);
    return {
      usersByRole: accounts.byRole,
      usersByStatus: accounts.byStatus,
      activeLearners7d: active[0]!.active7,
      activeLearners30d: active[0]!.active30,
      enrollments,
      certificates: issued,
      aiMessagesToday,
    };
  }

  /**
   * Changes one role under a row lock, so two admins acting at once cannot, for instance, both
   * remove the admin role from each other and leave the platform without an admin.
   */
  private async changeRole(actor: User | null, userId: string, role: Role, action: RoleChangeAction): Promise<User> {
    if (!isId(userId)) throw unknownUser();
    const home = await this.atHomeOf(userId);
    if (home !== this) return home.changeRole(actor, userId, role, action);
    return this.uow.transaction(async (em) => {
      const outcome = await this.services.accounts.changeRole(userId, role, action === RoleChangeAction.granted);
      if ('refused' in outcome) throw outcome.refused === 'last_admin' ? lastAdmin() : unknownUser();
      const { user, changed } = outcome;
      if (!changed) return user;
      em.create(RoleChange, { user, actor: actor?.id ?? null, role, action });
      await this.audit.record({
        actor,
        action: `admin.role_${action}`,
        target: { type: 'user', id: user.id },
        data: { role },
      });
      return user;
    });
  }
}

/** Suspension and reactivation, recorded in the audit trail. */
export interface SuspensionRequest {
  reason?: string | null;
}

/** The figures of every region, added up: the per-key lists (roles, statuses) by their key. */
function addStats(parts: RegionStats[]): RegionStats {
  const sum = (pick: (part: RegionStats) => number) => parts.reduce((total, part) => total + pick(part), 0);
  return {
    usersByRole: addBy(
      parts.map((part) => part.usersByRole),
      'role',
      'count',
    ),
    usersByStatus: addBy(
      parts.map((part) => part.usersByStatus),
      'status',
      'count',
    ),
    activeLearners7d: sum((part) => part.activeLearners7d),
    activeLearners30d: sum((part) => part.activeLearners30d),
    enrollments: sum((part) => part.enrollments),
    certificates: sum((part) => part.certificates),
    aiMessagesToday: sum((part) => part.aiMessagesToday),
  };
}

function addBy<K extends string, V extends string>(lists: Record<K | V, unknown>[][], key: K, value: V) {
  const totals = new Map<string, number>();
  for (const item of lists.flat())
    totals.set(item[key] as string, (totals.get(item[key] as string) ?? 0) + (item[value] as number));
  return [...totals].map(([name, total]) => ({ [key]: name, [value]: total }) as Record<K, string> & Record<V, number>);
}
