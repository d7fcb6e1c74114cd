import { type FilterQuery, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { AuthService } from '../auth';
import { normaliseEmail } from '../auth';
import { type AccountStatus, Role, User } from '../auth';
import { conflict, notFound } from '../kernel/errors';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { RoleChange, RoleChangeAction } from './role-change.entity';

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
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  async listUsers(filter: UserFilter, first: number, after?: string | null): Promise<Page<User>> {
    const where: FilterQuery<User> = { ...afterCursor(after) };
    if (filter.role) where.roles = { $contains: [filter.role] };
    if (filter.status) where.status = filter.status;
    if (filter.email) where.email = { $like: `%${escapeLike(normaliseEmail(filter.email))}%` };
    const rows = await this.em.find(User, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return toPage(rows, first);
  }

  async grantRole(actor: User | null, userId: string, role: Role): Promise<User> {
    return this.changeRole(actor, userId, role, RoleChangeAction.granted);
  }

  async removeRole(actor: User | null, userId: string, role: Role): Promise<User> {
    return this.changeRole(actor, userId, role, RoleChangeAction.removed);
  }

  roleChanges(userId: string): Promise<RoleChange[]> {
    return this.uow.children('admin.roleChanges', userId, (users) => this.em.find(RoleChange, { user: { $in: users } }, { orderBy: { createdAt: 'desc' }, populate: ['actor'] }), (change) => change.user.id);
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
    return { user, created: true };
  }

  /**
   * Changes one role under a row lock, so two admins acting at once cannot, for instance, both
   * remove the admin role from each other and leave the platform without an admin.
   */
  private async changeRole(actor: User | null, userId: string, role: Role, action: RoleChangeAction): Promise<User> {
    if (!isId(userId)) throw notFound('user');
    const user = await this.uow.transaction(async (em) => {
      if (role === Role.admin && action === RoleChangeAction.removed) await em.execute('lock table users in share row exclusive mode');
      const target = await em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!target) throw notFound('user');
      const has = target.hasRole(role);
      if ((action === RoleChangeAction.granted) === has) return target;
      if (role === Role.admin && action === RoleChangeAction.removed && (await em.count(User, { roles: { $contains: [Role.admin] } })) <= 1) {
        throw conflict('This is the last admin; grant the role to somebody else first.');
      }
      target.roles = action === RoleChangeAction.granted ? [...target.roles, role] : target.roles.filter((r) => r !== role);
      em.create(RoleChange, { user: target, actor: actor ? em.getReference(User, actor.id) : null, role, action });
      return target;
    });
    this.auth.publishAccountChanged(user.id);
    return user;
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
