import type { IncomingMessage } from 'node:http';
import type { Deps } from '../../kernel/deps';
import { accountSuspended, type AppError } from '../../kernel/errors';
import { endedSessionsOf, type SessionState } from '../../kernel/sessions';
import { authenticateHeader, type RequestAuth } from '../../kernel/tokens';
import { deletionPending } from '../../permissions/permissions.errors';
import { clientAddress, trustOf } from '../client-address';
import { connectionSessionEnded } from '../server.errors';

/** The first links of the chain, for an HTTP request and a socket alike: who calls, and from where. */
export interface CallerSteps {
  /**
   * What the bearer token says: its signature, expiry and claims, and whether its session still
   * stands as this instance knows it (in memory: no statement). A refused token says why in `error`.
   */
  auth(authorization: string | undefined): RequestAuth;
  /** The client's address (behind trusted proxies, X-Forwarded-For): what anonymous limits key on. */
  address(req: IncomingMessage): string;
}

export function callerSteps(deps: Deps): CallerSteps {
  const trust = trustOf(deps.config);
  const endedSessions = endedSessionsOf(deps);
  return {
    auth: (authorization) => endedSessions.check(authenticateHeader(deps.config, authorization)),
    address: (req) => clientAddress(req, trust),
  };
}

/** A token read once and held (a socket's) that has expired since. */
export const hasExpired = (auth: RequestAuth): boolean => auth.expiresAt !== undefined && auth.expiresAt <= Date.now();

/**
 * Why a session that is not live refuses its token: ended (401, sign in again), the account
 * suspended or its erasure pending (403).
 */
export function standingRefusal(state: Exclude<SessionState, 'live'>): AppError {
  if (state === 'suspended') return accountSuspended();
  if (state === 'deletion_pending') return deletionPending();
  return connectionSessionEnded();
}
