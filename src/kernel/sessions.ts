import { type Deps, perRegion } from './deps';
import { accountSuspended, type AppError, sessionEnded } from './errors';
import { CONNECTION_EVENT } from './pubsub';
import type { RequestAuth } from './tokens';

/**
 * Announced (on every instance, through the event bus) when sessions of an account end: a logout,
 * a password reset, a refresh token used twice, a suspension, a deletion request or an erasure.
 * Live connections of that account check at once whether their token still stands.
 */
export const SESSIONS_ENDED = 'SESSIONS_ENDED';
/** One topic key for all accounts: each instance listens once, not once per socket. */
export const SESSIONS_ENDED_KEY = 'all';

export interface SessionsEndedEvent {
  userId: string;
  /** The sessions (refresh token families) that ended; absent when too many to name in one event: each instance reads them. */
  sessionIds?: string[];
  /** They ended because the account was suspended: their tokens answer 403 account_suspended, not 401. */
  suspended?: boolean;
}

/**
 * Whether a token's session still stands: `ended` (401) or `suspended` (403 account_suspended) end
 * it; under `deletion_pending` (403 account_deletion_pending) it stands for reading the account and
 * cancelling the erasure over HTTP, and holds no WebSocket.
 */
export type SessionState = 'live' | 'ended' | 'suspended' | 'deletion_pending';

/** NOTIFY payloads stay under 8000 bytes: beyond this many sessions, an event names none. */
export const MAX_NAMED_SESSIONS = 100;
/** Clocks of instances and database may differ a little: an ended session is kept this much longer. */
const CLOCK_MARGIN_MS = 5_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * The sessions ended within an access token's lifetime, in memory on each instance, so an HTTP
 * request's token is checked against them without a statement (docs/auth.md). Filled from the
 * database at start-up (and again when the event connection comes back, since events sent while it
 * was down are lost), kept current by `SESSIONS_ENDED`, and pruned once every token of an ended
 * session has expired (a token is signed at the latest when its session ends, and lives ACCESS_TOKEN_TTL).
 */
export class EndedSessions {
  private readonly ended = new Map<string, { until: number; suspended: boolean }>();
  private readonly ttlMs: number;
  private stops: (() => void)[] = [];

  constructor(private readonly deps: Deps) {
    this.ttlMs = deps.config.ACCESS_TOKEN_TTL * 1000 + CLOCK_MARGIN_MS;
  }

  /** Listens to the bus, then reads what ended before; a restarted instance refuses the same tokens. */
  async start(): Promise<void> {
    const { pubSub, log } = this.deps;
    const reload = (userId?: string) =>
      void this.load(userId).catch((error: unknown) => log.warn({ err: error }, 'ended sessions not read'));
    this.stops.push(
      pubSub.listen(`${SESSIONS_ENDED}:${SESSIONS_ENDED_KEY}`, (detail) => {
        const event = detail as SessionsEndedEvent;
        if (event.sessionIds) this.add(event.sessionIds, Date.now(), event.suspended === true);
        else reload(event.userId);
      }),
      pubSub.listen(CONNECTION_EVENT, (connected) => connected && reload()),
    );
    const timer = setInterval(() => this.prune(Date.now()), PRUNE_EVERY_MS);
    timer.unref();
    this.stops.push(() => clearInterval(timer));
    await this.load();
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Sessions that ended at `endedAt` (epoch ms); their tokens are refused until the last of them expires. */
  add(sessionIds: string[], endedAt: number, suspended: boolean): void {
    for (const id of sessionIds) this.ended.set(id, { until: endedAt + this.ttlMs, suspended });
  }

  /** Why a signed, unexpired token no longer stands (its session ended), or undefined. */
  refusal(auth: RequestAuth): AppError | undefined {
    const entry = auth.sessionId === undefined ? undefined : this.ended.get(auth.sessionId);
    if (!entry || entry.until <= Date.now()) return undefined;
    return entry.suspended ? accountSuspended() : sessionEnded();
  }

  /** The token's authentication, or its refusal when its session has ended. */
  check(auth: RequestAuth): RequestAuth {
    const error = auth.userId ? this.refusal(auth) : undefined;
    return error ? { error } : auth;
  }

  private prune(now: number): void {
    for (const [id, entry] of this.ended) if (entry.until <= now) this.ended.delete(id);
  }

  /** Sessions (of one account, or all) revoked within a token's lifetime, read from the database. */
  private async load(userId?: string): Promise<void> {
    const rows = await this.deps.orm.em
      .getConnection()
      .execute<{ family_id: string; ended_at: Date; suspended: boolean }[]>(
        `select r.family_id, max(r.revoked_at) as ended_at, bool_or(u.status = 'suspended') as suspended
         from refresh_tokens r join users u on u.id = r.user_id
        where r.revoked_at > now() - make_interval(secs => ?) ${userId ? 'and r.user_id = ?' : ''}
        group by r.family_id`,
        userId ? [this.ttlMs / 1000, userId] : [this.ttlMs / 1000],
      );
    for (const row of rows) this.add([row.family_id], new Date(row.ended_at).getTime(), row.suspended);
  }
}

/** This process's ended sessions: one per Deps, shared by the HTTP pipeline and the services that end sessions. */
export const endedSessionsOf = perRegion((deps) => new EndedSessions(deps));
