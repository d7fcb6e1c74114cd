import { randomUUID } from 'node:crypto';
import { LockMode, UniqueConstraintViolationException, wrap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { accessChanged } from '../kernel/access';
import { hash, type Options, verify } from '@node-rs/argon2';
import { isEmail } from 'class-validator';
import { publicLink } from '../mail/deliver';
import { sendMail } from '../mail/queue';
import type { Mail } from '../mail/mailer';
import type { Deps } from '../kernel/deps';
import type { DomainEvents } from '../kernel/events';
import { accountSuspended } from '../kernel/errors';
import { ageOn, MIN_AGE_WITHOUT_GUARDIAN } from './age';
import { AccountToken, AccountTokenPurpose } from './account-token.entity';
import { guardianInvitationMail, passwordResetMail, verificationMail } from './auth.mails';
import { RefreshToken } from './refresh-token.entity';
import { hashToken, randomToken, signAccessToken } from '../kernel/tokens';
import {
  endedSessionsOf,
  MAX_NAMED_SESSIONS,
  SESSIONS_ENDED,
  SESSIONS_ENDED_KEY,
  type SessionsEndedEvent,
  type SessionState,
} from '../kernel/sessions';
import { AccountStatus, Locale, Role, User } from './user.entity';
import { assertValid, managedLearnerProblems, normaliseEmail, passwordProblems, signupProblems } from './account-input';
import { type Account, accountsOf } from './account-cache';
import { accountDirectoryOf } from './account-directory';
import { emailTaken, invalidRefreshToken, invalidToken, refreshTokenReused, wrongCredentials } from './auth.errors';

export interface SignupRequest {
  email: string;
  password: string;
  displayName: string;
  role: Role;
  birthDate?: string | null;
  country: string;
  locale?: Locale | null;
  guardianEmail?: string | null;
}

export interface Session {
  user: User;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/** ISO 3166's code for an unknown country. */
const UNKNOWN_COUNTRY = 'ZZ';
const VERIFICATION_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;
export const ACCOUNT_CHANGED = 'ACCOUNT_CHANGED';

/** A hash to verify against when the e-mail is unknown, so both answers take the same time: one per hashing cost. */
const decoyHashes = new Map<number, Promise<string>>();

export class AuthService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: Deps,
  ) {}

  /** Argon2id's cost for new hashes; verify reads each stored hash's own. */
  private get hashing(): Options {
    return { memoryCost: this.deps.config.PASSWORD_HASH_MEMORY_KIB };
  }

  private get em(): EntityManager {
    return this.uow.em;
  }

  /**
   * The account by id as stored now (the caller comes from the cache: callerUser): the one this unit of
   * work holds already, else one plain statement (`uow.query`) made into a managed entity the way
   * findOne makes its row into one. findOne's query building and hydration cost twice the statement
   * itself, and em.map validates and merges the new entity a second time (a third of its cost).
   */
  async findUser(id: string): Promise<User | null> {
    const em = this.em;
    const held = em.getUnitOfWork().getById<User>(User.name, id);
    if (held && wrap(held).isInitialized()) return held;
    const [row] = await this.uow.query<Record<string, unknown>>(
      'select u0.* from users as u0 where u0.id = ? limit 1',
      [id],
    );
    return row ? this.userOfRow(row) : null;
  }

  /** The caller's account, plain, from this instance's cache (account-cache.ts): what rules and `me` read. */
  async callerAccount(id: string): Promise<Account | null> {
    return (await accountsOf(this.deps).get(id))?.account ?? null;
  }

  /** The caller as a managed entity, for resolvers that hand it on: the one this unit holds, else made from the cached row. */
  async callerUser(id: string): Promise<User | null> {
    const held = this.em.getUnitOfWork().getById<User>(User.name, id);
    if (held && wrap(held).isInitialized()) return held;
    const cached = await accountsOf(this.deps).get(id);
    return cached ? this.userOfRow(cached.row) : null;
  }

  private userOfRow(row: Record<string, unknown>): User {
    const em = this.em;
    const data = em.getDriver().mapResult<User>(row, em.getMetadata().get(User.name))!;
    return em.getEntityFactory().create(User, data, { merge: true, refresh: true, convertCustomTypes: true });
  }

  /** Many accounts in one statement (the graph's batched edges). */
  findUsers(ids: string[]): Promise<User[]> {
    return ids.length ? this.em.find(User, { id: { $in: ids } }) : Promise.resolve([]);
  }

  findUserByEmail(email: string): Promise<User | null> {
    return this.em.findOne(User, { email: normaliseEmail(email) });
  }

  /** Makes the account in this unit's region, which is its home (HomeRegionService picks it), under the id its directory entry claimed. */
  async signup(request: SignupRequest, id: string): Promise<Session> {
    const email = normaliseEmail(request.email);
    const age = request.birthDate ? ageOn(request.birthDate) : undefined;
    assertValid(signupProblems({ ...request, email }, age));
    const needsGuardian = request.role === Role.learner && age! < MIN_AGE_WITHOUT_GUARDIAN;
    const user = this.em.create(User, {
      id,
      email,
      passwordHash: await hash(request.password, this.hashing),
      displayName: request.displayName.trim(),
      roles: [request.role],
      birthDate: request.birthDate ?? null,
      country: request.country.toUpperCase(),
      region: this.deps.region,
      locale: request.locale ?? Locale.en,
      status: needsGuardian ? AccountStatus.pending_guardian : AccountStatus.active,
      guardianEmail: needsGuardian ? normaliseEmail(request.guardianEmail!) : null,
    });
    // The account, its tokens, its session and its mails are one commit.
    return this.uow.transaction(async (em) => {
      const verification = this.newAccountToken(user, AccountTokenPurpose.verify_email, VERIFICATION_TTL_MS);
      try {
        await em.flush();
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw emailTaken();
        throw error;
      }
      await this.send(
        verificationMail(user, this.link('verify-email', verification, { lang: user.locale }), verification),
      );
      if (user.guardianEmail) {
        await this.send(
          guardianInvitationMail(user, user.guardianEmail, this.link('signup', undefined, { role: 'guardian' })),
        );
      }
      return this.startSession(user);
    });
  }

  async login(emailInput: string, password: string, ip: string): Promise<Session> {
    const email = normaliseEmail(emailInput);
    const { limits } = this.deps;
    // Each attempt counts as a failure before its password is verified, and gets its point back if it
    // succeeds: concurrent guesses can then verify no more passwords than the limit allows.
    await limits.consume('loginFailuresIp', ip);
    try {
      await limits.consume('loginFailuresEmail', email);
    } catch (error) {
      await limits.refund('loginFailuresIp', ip);
      throw error;
    }
    const user = await this.em.findOne(User, { email });
    const valid = user
      ? await verify(user.passwordHash, password)
      : await verify(await decoy(this.hashing), password).then(() => false);
    if (!user || !valid) throw wrongCredentials();
    await limits.refund('loginFailuresIp', ip);
    await limits.reset('loginFailuresEmail', email);
    if (user.status === AccountStatus.suspended) throw accountSuspended();
    return this.startSession(user);
  }

  /** Replaces a refresh token by a new one; a token used twice means theft, so its family ends. */
  async refresh(token: string): Promise<Session> {
    const outcome = await this.uow.transaction(async (em) => {
      const current = await em.findOne(
        RefreshToken,
        { tokenHash: hashToken(token) },
        { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['user'] },
      );
      if (!current || current.revokedAt || current.expiresAt <= new Date())
        return { reused: false, session: undefined };
      if (current.usedAt) {
        await this.endSessions(em, current.user.id, { familyId: current.familyId });
        return { reused: true, session: undefined };
      }
      current.usedAt = new Date();
      return { reused: false, session: await this.startSession(current.user, current.familyId, em) };
    });
    if (outcome.session) return outcome.session;
    if (outcome.reused) {
      this.deps.log.warn('refresh token used twice: its session family was revoked');
      throw refreshTokenReused();
    }
    throw invalidRefreshToken();
  }

  /** Ends the session the refresh token belongs to; an unknown token is already logged out. */
  async logout(token: string): Promise<void> {
    const current = await this.em.findOne(RefreshToken, { tokenHash: hashToken(token) });
    if (!current) return;
    await this.endSessions(this.em, current.user.id, { familyId: current.familyId });
  }

  async verifyEmail(token: string): Promise<User> {
    const user = await this.consumeAccountToken(token, AccountTokenPurpose.verify_email);
    if (!user.emailVerifiedAt) {
      user.emailVerifiedAt = new Date();
      await this.em.flush();
      this.publishAccountChanged(user.id);
    }
    return user;
  }

  /**
   * Both answers promise a mail, so they come after a commit that makes it certain: one outbox row
   * (this area's own `accountMailAsked` reaction, accountMail below) whether or not the address has
   * an account. The lookup, the token and the mail, whose cost would tell the two apart, happen in
   * that reaction, after the answer.
   */
  async resendVerification(email: string): Promise<void> {
    await this.uow.raise({
      type: 'accountMailAsked',
      purpose: AccountTokenPurpose.verify_email,
      email: normaliseEmail(email),
    });
  }

  /** Answers alike whether or not the address has an account; only an account holder gets mail. */
  async forgotPassword(email: string): Promise<void> {
    await this.uow.raise({
      type: 'accountMailAsked',
      purpose: AccountTokenPurpose.reset_password,
      email: normaliseEmail(email),
    });
  }

  /** The reaction to `accountMailAsked`, in the outbox row's transaction: the token and its mail, for an account that may have one. */
  async accountMail({ purpose, email }: DomainEvents['accountMailAsked']): Promise<void> {
    const user = await this.em.findOne(User, { email });
    if (!user) return;
    if (purpose === AccountTokenPurpose.verify_email) {
      if (user.emailVerified) return;
      const token = this.newAccountToken(user, purpose, VERIFICATION_TTL_MS);
      await this.em.flush();
      await this.send(verificationMail(user, this.link('verify-email', token, { lang: user.locale }), token));
      return;
    }
    await this.em.nativeUpdate(AccountToken, { user, purpose, usedAt: null }, { usedAt: new Date() });
    const token = this.newAccountToken(user, purpose, RESET_TTL_MS);
    await this.em.flush();
    await this.send(passwordResetMail(user, this.link('reset-password', token, { lang: user.locale }), token));
  }

  /** Sets a new password and ends every session of the account, in one transaction. */
  async resetPassword(token: string, password: string): Promise<void> {
    await this.uow.transaction(async (em) => {
      const user = await this.consumeAccountToken(token, AccountTokenPurpose.reset_password, em, (owner) =>
        assertValid(passwordProblems(password, owner.email)),
      );
      user.passwordHash = await hash(password, this.hashing);
      // Following the mailed link proves the address, as verification would.
      user.emailVerifiedAt ??= new Date();
      await this.endSessions(em, user.id);
    });
  }

  /** Creates an account outside sign-up (the first admin, the demo's accounts, from the command line); verified at once. */
  async createVerifiedUser(
    email: string,
    password: string,
    displayName: string,
    role: Role,
    profile: { birthDate?: string; country?: string } = {},
  ): Promise<User> {
    const normalised = normaliseEmail(email);
    if (this.deps.homeRegionOf(profile.country ?? UNKNOWN_COUNTRY) !== this.deps.region)
      throw new Error(`an account of ${profile.country} is made in its home region's unit of work`);
    assertValid([
      ...(isEmail(normalised) ? [] : [{ field: 'email', message: 'must be an e-mail address' }]),
      ...passwordProblems(password, normalised),
    ]);
    const user = this.em.create(User, {
      id: await accountDirectoryOf(this.deps).claimNew(this.deps.region, normalised),
      email: normalised,
      passwordHash: await hash(password, this.hashing),
      displayName,
      roles: [role],
      birthDate: profile.birthDate ?? null,
      // Platform staff (the first admin) name no country: theirs is global, where the shared data they write lives.
      country: profile.country ?? UNKNOWN_COUNTRY,
      region: this.deps.region,
      emailVerifiedAt: new Date(),
    });
    await this.em.flush();
    return user;
  }

  /** A child without an e-mail of their own, managed by their guardian: an address that receives nothing, no known password. */
  async createManagedLearner(profile: {
    displayName: string;
    birthDate: string;
    country: string;
    locale?: Locale | null;
  }): Promise<User> {
    assertValid(managedLearnerProblems(profile.displayName, profile.birthDate));
    const [email, region] = [`child-${randomUUID()}@placeholder.invalid`, this.deps.homeRegionOf(profile.country)];
    const user = this.em.create(User, {
      id: await accountDirectoryOf(this.deps).claimNew(region, email),
      email,
      passwordHash: await hash(randomToken().token, this.hashing),
      displayName: profile.displayName.trim(),
      roles: [Role.learner],
      birthDate: profile.birthDate,
      country: profile.country.toUpperCase(),
      region,
      locale: profile.locale ?? Locale.en,
    });
    await this.em.flush();
    return user;
  }

  /** A learner under 13 waits for a guardian (pending_guardian) until a verified guardian's link is active. */
  async setStatus(user: User, status: AccountStatus): Promise<void> {
    if (user.status === status) return;
    user.status = status;
    await this.em.flush();
    accessChanged(this.uow, user.id);
    this.publishAccountChanged(user.id);
  }

  /** The account's address as stored now (before its erasure pseudonymises it), if the account exists. */
  async emailOf(userId: string): Promise<string | null> {
    const [row] = await this.uow.query<{ email: string }>(`select email from users where id = ?`, [userId]);
    return row?.email ?? null;
  }

  /** Accounts per role and per status, for the platform's figures, in one statement. */
  async accountCounts(): Promise<{
    byRole: { role: string; count: number }[];
    byStatus: { status: string; count: number }[];
  }> {
    const [row] = await this.em.execute<
      { by_role: { role: string; count: number }[]; by_status: { status: string; count: number }[] }[]
    >(`
      select
        (select coalesce(json_agg(json_build_object('role', role, 'count', n) order by role), '[]') from (select unnest(roles) as role, count(*)::int as n from users group by 1) r) as by_role,
        (select coalesce(json_agg(json_build_object('status', status, 'count', n) order by status), '[]') from (select status, count(*)::int as n from users group by 1) s) as by_status`);
    return { byRole: row.by_role, byStatus: row.by_status };
  }

  publishAccountChanged(userId: string): void {
    this.uow.publish(ACCOUNT_CHANGED, userId, { userId });
  }

  /**
   * Ends sessions of an account (one family, or every live one): revokes their refresh tokens and,
   * after commit, announces which ended. `suspended`: their tokens answer account_suspended.
   */
  async endSessions(
    em: EntityManager,
    userId: string,
    options: { familyId?: string; suspended?: boolean } = {},
  ): Promise<void> {
    const { familyId, suspended = false } = options;
    const rows = await em.execute<{ family_id: string }[]>(
      `with ended as (update refresh_tokens set revoked_at = now() where user_id = ? and revoked_at is null ${familyId ? 'and family_id = ?' : ''} returning family_id)
       select distinct family_id from ended`,
      familyId ? [userId, familyId] : [userId],
    );
    this.publishSessionsEnded(
      userId,
      rows.map((row) => row.family_id),
      suspended,
    );
  }

  /**
   * After commit, tells every instance that these sessions of the account ended: HTTP refuses their
   * tokens (this instance before the answer leaves; the bus reaches it a moment later) and live
   * sockets close.
   */
  publishSessionsEnded(userId: string, sessionIds: string[], suspended = false): void {
    const named = sessionIds.length <= MAX_NAMED_SESSIONS;
    this.uow.publish(SESSIONS_ENDED, SESSIONS_ENDED_KEY, {
      userId,
      ...(named ? { sessionIds } : {}),
      suspended,
    } satisfies SessionsEndedEvent);
    this.uow.afterCommit(() => endedSessionsOf(this.deps).add(sessionIds, Date.now(), suspended));
  }

  /**
   * A suspension was lifted: the sessions it ended stay ended, but their tokens answer 401 from now
   * on, not account_suspended. An event that names no session has each instance read them again.
   */
  publishSuspensionLifted(userId: string): void {
    this.uow.publish(SESSIONS_ENDED, SESSIONS_ENDED_KEY, { userId } satisfies SessionsEndedEvent);
  }

  /**
   * Whether an access token still stands beyond its signature and expiry, in one statement: the
   * account exists and is not suspended, and the token's session (refresh token family) has a
   * token neither revoked nor expired. A token without a session id is judged by its account only.
   * A live session of an account whose erasure is pending is told apart: it holds no WebSocket.
   */
  async sessionState(userId: string, sessionId?: string): Promise<SessionState> {
    const [row] = await this.em.execute<{ status: AccountStatus; live: boolean }[]>(
      `select u.status, (?::uuid is null or exists (
         select 1 from refresh_tokens r where r.family_id = ?::uuid and r.user_id = u.id and r.revoked_at is null and r.expires_at > now())) as live
       from users u where u.id = ?`,
      [sessionId ?? null, sessionId ?? null, userId],
    );
    if (!row || row.status === AccountStatus.erased) return 'ended';
    if (row.status === AccountStatus.suspended) return 'suspended';
    if (!row.live) return 'ended';
    return row.status === AccountStatus.deletion_pending ? 'deletion_pending' : 'live';
  }

  private async startSession(
    user: User,
    familyId: string = randomUUID(),
    em: EntityManager = this.em,
  ): Promise<Session> {
    const { config } = this.deps;
    const refresh = randomToken();
    em.create(RefreshToken, {
      user,
      familyId,
      tokenHash: refresh.hash,
      expiresAt: new Date(Date.now() + config.REFRESH_TOKEN_TTL * 1000),
    });
    await em.flush();
    return {
      user,
      accessToken: signAccessToken(config, { sub: user.id, roles: user.roles, sid: familyId, region: user.region }),
      refreshToken: refresh.token,
      expiresIn: config.ACCESS_TOKEN_TTL,
    };
  }

  private newAccountToken(
    user: User,
    purpose: AccountTokenPurpose,
    ttlMs: number,
    em: EntityManager = this.em,
  ): string {
    const { token, hash: tokenHash } = randomToken();
    em.create(AccountToken, { user, purpose, tokenHash, expiresAt: new Date(Date.now() + ttlMs) });
    return token;
  }

  /**
   * Claims the token with a conditional update, so it works once even when two requests race;
   * `check` runs before the claim, so a refused request leaves the token usable.
   */
  private async consumeAccountToken(
    token: string,
    purpose: AccountTokenPurpose,
    em: EntityManager = this.em,
    check: (owner: User) => void = () => {},
  ): Promise<User> {
    const now = new Date();
    const found = await em.findOne(
      AccountToken,
      { tokenHash: hashToken(token), purpose, usedAt: null, expiresAt: { $gt: now } },
      { populate: ['user'] },
    );
    if (found) check(found.user);
    const claimed = found && (await em.nativeUpdate(AccountToken, { id: found.id, usedAt: null }, { usedAt: now }));
    if (!found || !claimed) throw invalidToken();
    return found.user;
  }

  private link(page: string, token?: string, query: Record<string, string> = {}): string {
    return publicLink(this.deps.config.PUBLIC_URL, page, token, query);
  }

  /** In the caller's transaction: the mail is an outbox row committed with the token it carries. */
  private send(mail: Mail): Promise<void> {
    return sendMail(this.uow, mail);
  }
}

function decoy(hashing: Options): Promise<string> {
  const cost = hashing.memoryCost!;
  if (!decoyHashes.has(cost)) decoyHashes.set(cost, hash(randomUUID(), hashing));
  return decoyHashes.get(cost)!;
}
