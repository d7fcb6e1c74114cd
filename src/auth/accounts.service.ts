import { type FilterQuery, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { verify } from '@node-rs/argon2';
import { afterCursor, type Page } from '../kernel/pagination';
import { acrossRegions, type RegionPart } from '../kernel/region-pages';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { normaliseEmail } from './account-input';
import type { AuthService } from './auth.service';
import { AccountStatus, Role, User } from './user.entity';

/** Which accounts an admin lists. */
export interface AccountFilter {
  role?: Role | null;
  status?: AccountStatus | null;
  /** Part of the address, case-insensitive. */
  email?: string | null;
}

/** What a role change did: the account and whether it changed, or why it did not happen. */
export type RoleChangeOutcome = { user: User; changed: boolean } | { refused: 'unknown_account' | 'last_admin' };

/**
 * What other areas do to accounts: the row lock that serialises their rules about one account,
 * suspension, status and roles. The accounts area writes its own rows; the others ask it here,
 * inside their own transaction, and keep their rules and their records (audit, role changes).
 */
export class AccountsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly auth: AuthService,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * Locks the account's row (select ... for update) in the caller's transaction, which must be open:
   * whoever decides on the account's state or counts its rows (links, requests) decides after the
   * one before has committed. Null when there is no such account.
   */
  lockAccount(userId: string): Promise<User | null> {
    return this.em.findOne(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** The account as stored now, read again even when this unit of work holds it. */
  freshAccount(userId: string): Promise<User | null> {
    return this.em.findOne(User, { id: userId }, { refresh: true });
  }

  /** Whether the password is the account's (a step that destroys data asks for it again). */
  passwordMatches(user: User, password: string): Promise<boolean> {
    return verify(user.passwordHash, password);
  }

  /** The account, found by address. */
  findByEmail(email: string): Promise<User | null> {
    return this.auth.findUserByEmail(email);
  }

  /** Accounts of every region, newest first, a page at a time (admins' list). */
  list(filter: AccountFilter, first: number, after?: string | null): Promise<Page<User>> {
    const { deps } = this.uow;
    return acrossRegions(deps, first, after, (view) =>
      (view.region === deps.region ? this : view.unit().services.accounts).listHere(filter, first, after),
    );
  }

  /**
   * The addresses of these accounts, in whichever region each lives: a trail kept in one region's
   * database names, by id, an actor of another (an admin of global acting on a vn account).
   */
  async emailsOf(ids: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids)];
    if (!wanted.length) return new Map();
    const found = await Promise.all(
      this.uow.deps.regions.map((view) =>
        view.sql.query<{ id: string; email: string }>('select id, email from users where id = any(?::uuid[])', [
          `{${wanted.join(',')}}`,
        ]),
      ),
    );
    return new Map(found.flat().map((row) => [row.id, row.email]));
  }

  /** This region's part of a list of accounts. */
  async listHere(filter: AccountFilter, first: number, after?: string | null): Promise<RegionPart<User>> {
    const where: FilterQuery<User> = {};
    if (filter.role) where.roles = { $contains: [filter.role] };
    if (filter.status) where.status = filter.status;
    if (filter.email) where.email = { $like: `%${escapeLike(normaliseEmail(filter.email))}%` };
    const rows = await this.em.find(
      User,
      { ...where, ...afterCursor(after) },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return { rows, count: () => this.em.count(User, where) };
  }

  /**
   * Suspends an account locked by lockAccount: log-in and every token are refused from now on, and
   * its refresh tokens are revoked in the same transaction. Returns the status it had.
   */
  async suspend(user: User): Promise<AccountStatus> {
    const previous = user.status;
    user.status = AccountStatus.suspended;
    await this.auth.endSessions(this.em, user.id, { suspended: true });
    this.auth.publishAccountChanged(user.id);
    return previous;
  }

  /** Gives an account locked by lockAccount a status back (a suspension lifted, an erasure called off). */
  restore(user: User, status: AccountStatus): void {
    user.status = status;
    this.auth.publishAccountChanged(user.id);
  }

  /** Marks an account locked by lockAccount for erasure: its tokens answer as an account on its way out. */
  markForErasure(user: User): void {
    user.status = AccountStatus.deletion_pending;
  }

  /**
   * Grants or removes one role. Removing the admin role first locks every admin's row, in one
   * order, so two admins removing the role from each other at once cannot leave the platform
   * without one: the second sees the first's change and counts one admin left.
   */
  async changeRole(userId: string, role: Role, grant: boolean): Promise<RoleChangeOutcome> {
    const guardsLastAdmin = role === Role.admin && !grant;
    const admins = guardsLastAdmin ? await this.lockAdmins() : [];
    const user = await this.lockAccount(userId);
    if (!user) return { refused: 'unknown_account' };
    if (grant === user.hasRole(role)) return { user, changed: false };
    if (guardsLastAdmin && admins.length + (await this.adminsElsewhere()) <= 1) return { refused: 'last_admin' };
    user.roles = grant ? [...user.roles, role] : user.roles.filter((r) => r !== role);
    this.auth.publishAccountChanged(user.id);
    return { user, changed: true };
  }

  /** Admins of the other regions (an admin is usually global's, but a vn account may be given the role). */
  private async adminsElsewhere(): Promise<number> {
    const { deps } = this.uow;
    const counts = await Promise.all(
      deps.regions
        .filter((view) => view.region !== deps.region)
        .map((view) =>
          view.sql.query<{ n: number }>(`select count(*)::int as n from users where roles @> '{admin}'`, []),
        ),
    );
    return counts.reduce((sum, [row]) => sum + row.n, 0);
  }

  private lockAdmins(): Promise<User[]> {
    return this.em.find(
      User,
      { roles: { $contains: [Role.admin] } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, refresh: true },
    );
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
