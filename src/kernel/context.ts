import type { EntityManager } from '@mikro-orm/postgresql';
import type { RateLimits, RateLimitState } from './rate-limit';
import type { Services } from './services';
import type { RequestAuth } from './tokens';
import type { UnitOfWork } from './unit-of-work';

/**
 * The caller as stored now. The accounts area says what that is (`interface Viewer extends User`),
 * so the kernel need not import it.
 */
export interface Viewer {}

/**
 * The caller's account as a plain record (no entity), as the accounts area keeps it current on
 * each instance: what permission rules read. The accounts area says what it is, as for Viewer.
 */
export interface Caller {}

/** What every resolver, rule and route of one request or WebSocket operation sees. */
export interface Context {
  limits: RateLimits;
  requestId: string;
  ip: string;
  auth: RequestAuth;
  /** Shows a limit the request was counted in to the caller (an HTTP answer's X-RateLimit-* headers; a socket shows none). */
  showLimit(state: RateLimitState): void;
  uow: UnitOfWork;
  /** The unit of work's entity manager (its transaction's, inside one). */
  readonly em: EntityManager;
  services: Services;
  /** The caller's account as stored now (roles and status may have changed since the token), a managed entity. */
  viewer(): Promise<Viewer | null>;
  /** The same account, plain and without a statement when this instance has it already: for rules and reads of the account's own fields. */
  caller(): Promise<Caller | null>;
  /** Why the caller could not be looked up (the database down, say), for rules that refuse because of it. */
  failure(): unknown;
}
