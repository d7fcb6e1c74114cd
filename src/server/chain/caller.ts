import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { Config } from '../../config';
import { type Deps, homeOf } from '../../kernel/deps';
import { accountSuspended, type AppError, unauthenticated } from '../../kernel/errors';
import { endedSessionsOf, type SessionState } from '../../kernel/sessions';
import { authenticateHeader, type RequestAuth } from '../../kernel/tokens';
import { deletionPending } from '../../permissions/permissions.errors';
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
  const served = new Set(deps.regions.map((view) => view.region));
  return {
    auth: (authorization) => {
      const auth = authenticateHeader(deps.config, authorization);
      // A region this process has no database for (a token of another deployment's secret) names nobody here.
      if (auth.region !== undefined && !served.has(auth.region)) return { error: unauthenticated() };
      return endedSessionsOf(homeOf(deps, auth)).check(auth);
    },
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

export type TrustedHop = (address: string, hop: number) => boolean;

/**
 * Which hops' X-Forwarded-For entries are believed (TRUST_PROXY): the first `n` (the peer, then
 * the entries each trusted proxy appended, right to left), or those whose address is listed.
 */
export function trustOf(config: Pick<Config, 'TRUST_PROXY'>): TrustedHop {
  const trusted = config.TRUST_PROXY;
  return typeof trusted === 'number' ? (_address, hop) => hop < trusted : proxyaddr.compile(trusted);
}

/**
 * The client: the address the last trusted hop saw. The entries left of it were written by the
 * client or by proxies nobody vouches for, so writing more of them changes nothing.
 */
export function clientAddress(req: IncomingMessage, trust: TrustedHop): string {
  return proxyaddr(req, trust);
}

/**
 * A caller on this machine that came straight to the service: a loopback peer and no proxy's
 * header. A request relayed by a proxy is not local because the proxy is: the proxy serves whoever
 * reaches it, and the address it reports (even 127.0.0.1, for a client on its own machine) is a
 * client of the proxy, which a scraper beside the service never is.
 */
export function isDirectFromLoopback(req: IncomingMessage): boolean {
  return (
    isLoopback(req.socket.remoteAddress) &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined
  );
}

function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return ip === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
