import type { Caller, Context, Viewer } from '../kernel/context';
import { type Deps, homeOf } from '../kernel/deps';
import { openUnit } from './platform';

/**
 * `em` lives on the prototype: Apollo copies a context's own properties for every operation
 * (Object.assign onto the same prototype), and an own getter would be read there, forking an entity
 * manager for operations that never touch the ORM. Through the prototype the copy reads it only when
 * asked, from its unit of work.
 */
const contextPrototype = {
  get em() {
    return (this as unknown as Context).uow.em;
  },
};

/** A context for one request or WebSocket operation: its own unit of work, services and caller. */
export function createContext(deps: Deps, request: Pick<Context, 'requestId' | 'ip' | 'auth' | 'showLimit'>): Context {
  // The caller's personal data is in their home region's database: the unit reads and writes there.
  const { uow, services } = openUnit(homeOf(deps, request.auth));
  let viewer: Promise<Viewer | null> | undefined;
  let caller: Promise<Caller | null> | undefined;
  let failure: unknown;
  const { userId } = request.auth;
  const noted = <T>(read: Promise<T>) =>
    read.catch((error: unknown) => {
      failure = error;
      throw error;
    });
  // Both from this instance's cache of callers (src/auth/account-cache.ts): one read of the row at most.
  const own: Omit<Context, 'em'> = {
    ...request,
    limits: deps.limits,
    uow,
    services,
    viewer: () => (viewer ??= userId ? noted(services.auth.callerUser(userId)) : Promise.resolve(null)),
    caller: () => (caller ??= userId ? noted(services.auth.callerAccount(userId)) : Promise.resolve(null)),
    failure: () => failure,
  };
  return Object.assign(Object.create(contextPrototype) as Context, own);
}
