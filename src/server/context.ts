import type { Context, Viewer } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { openUnit } from './platform';

/** A context for one request or WebSocket operation: its own unit of work, services and caller. */
export function createContext(deps: Deps, request: Pick<Context, 'requestId' | 'ip' | 'auth' | 'countedBuckets'>): Context {
  const { uow, services } = openUnit(deps);
  let viewer: Promise<Viewer | null> | undefined;
  let failure: unknown;
  return {
    ...request,
    limits: deps.limits,
    uow,
    get em() {
      return uow.em;
    },
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
}
