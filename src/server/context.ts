import type { Context, Viewer } from '../kernel/context';
import type { Deps } from '../kernel/deps';
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
export function createContext(deps: Deps, request: Pick<Context, 'requestId' | 'ip' | 'auth' | 'countedBuckets'>): Context {
  const { uow, services } = openUnit(deps);
  let viewer: Promise<Viewer | null> | undefined;
  let failure: unknown;
  const own: Omit<Context, 'em'> = {
    ...request,
    limits: deps.limits,
    uow,
    services,
    viewer: () =>
      (viewer ??= request.auth.userId
        ? services.auth.findUser(request.auth.userId).catch((error: unknown) => {
            failure = error;
            throw error;
          })
        : Promise.resolve(null)),
    failure: () => failure,
  };
  return Object.assign(Object.create(contextPrototype) as Context, own);
}
