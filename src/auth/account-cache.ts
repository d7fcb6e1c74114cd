import type { EventSubscriber, FlushEventArgs } from '@mikro-orm/core';
import { AccessCache } from '../kernel/access-cache';
import { type Deps, perRegion } from '../kernel/deps';
import { SESSIONS_ENDED, SESSIONS_ENDED_KEY, type SessionsEndedEvent } from '../kernel/sessions';
import { afterCurrentCommit } from '../kernel/unit-of-work';
import { type AccountStatus, type Locale, type Role, type Tier, User } from './user.entity';

/** The caller's account as stored, plain (no entity): what the permission rules and `me` read. */
export interface Account {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
  readonly roles: readonly Role[];
  readonly birthDate: string | null;
  readonly country: string;
  readonly region: string;
  readonly locale: Locale;
  readonly tier: Tier;
  readonly status: AccountStatus;
  readonly emailVerifiedAt: Date | null;
  readonly emailVerified: boolean;
  readonly guardianEmail: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A cached account: its row as read (for an entity, when a resolver needs one) and the plain account. */
export interface CachedAccount {
  row: Record<string, unknown>;
  account: Account;
}

/** At most this many accounts are kept; the oldest go first. */
const MAX_ENTRIES = 50_000;
/** A safety net only: every change of a `users` row is announced (see below), so entries rarely live this long. */
const TTL_MS = 60_000;

const accountOfRow = (row: Record<string, unknown>): Account =>
  Object.freeze({
    id: row.id as string,
    email: row.email as string,
    displayName: row.display_name as string,
    roles: Object.freeze([...(row.roles as Role[])]),
    birthDate: (row.birth_date as string | null) ?? null,
    country: row.country as string,
    region: row.region as string,
    locale: row.locale as Locale,
    tier: row.tier as Tier,
    status: row.status as AccountStatus,
    emailVerifiedAt: row.email_verified_at === null ? null : new Date(row.email_verified_at as string),
    emailVerified: row.email_verified_at !== null,
    guardianEmail: (row.guardian_email as string | null) ?? null,
    createdAt: new Date(row.created_at as string),
    updatedAt: new Date(row.updated_at as string),
  });

/**
 * Callers' accounts, kept in memory on each instance: an authenticated request reads its caller
 * (roles, status, tier) for its permissions, and reading the row each time was most of what the
 * service added to a request over Apollo's own cost. Kept current as the AI proxy's decisions
 * are (src/kernel/access-cache.ts): the database announces every change of a `users` row on the event
 * channel (`accessChanged`, triggers of the AI area's and the accounts' migrations) to every
 * instance, at commit; this instance's own ORM writes drop the entry at once, before the answer
 * leaves. While the event connection is down nothing is kept: each request reads afresh. A read
 * under way when its account changes answers its caller but is not kept (it may be the old row).
 */
export class AccountCache {
  private readonly cache: AccessCache<CachedAccount | null>;
  private readonly stops: (() => void)[];

  constructor(private readonly deps: Deps) {
    this.cache = new AccessCache(deps.pubSub, {
      ttlMs: TTL_MS,
      maxEntries: MAX_ENTRIES,
      keep: (entry) => entry !== null,
    });
    // Sessions end with a suspension, a deletion request or an erasure (whose row changes its id).
    this.stops = [
      deps.pubSub.listen(`${SESSIONS_ENDED}:${SESSIONS_ENDED_KEY}`, (detail) =>
        this.cache.drop((detail as SessionsEndedEvent).userId),
      ),
    ];
    const subscriber: EventSubscriber = { afterFlush: (args) => this.dropWritten(args) };
    deps.orm.em.getEventManager().registerSubscriber(subscriber);
  }

  /** The account of `id` (null when there is none): kept, being read, or read now. A failed read is not kept. */
  get(id: string): Promise<CachedAccount | null> {
    return this.cache.get(id, () => this.read(id));
  }

  /** Accounts kept now. */
  get size(): number {
    return this.cache.size;
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.cache.close();
  }

  private async read(id: string): Promise<CachedAccount | null> {
    const [row] = await this.deps.sql.query<Record<string, unknown>>(
      'select u0.* from users as u0 where u0.id = ? limit 1',
      [id],
    );
    return row ? { row, account: accountOfRow(row) } : null;
  }

  /**
   * Accounts this instance's ORM just wrote: dropped now and again at commit (a read between the
   * flush and the commit sees the old row), so the very next request here reads the new one.
   */
  private dropWritten(args: FlushEventArgs): void {
    const ids = args.uow
      .getChangeSets()
      .filter((change) => change.entity instanceof User && change.type !== 'create')
      .map((change) => (change.entity as User).id);
    if (!ids.length) return;
    const dropAll = () => ids.forEach((id) => this.cache.drop(id));
    dropAll();
    afterCurrentCommit(dropAll);
  }
}

/** This process's cache of callers' accounts. */
export const accountsOf = perRegion((deps) => new AccountCache(deps));
