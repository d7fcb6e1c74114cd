import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestAuth } from '../auth/tokens';
import type { User } from '../auth/user.entity';
import { createServices, type Services } from '../services';
import type { Deps } from './deps';
import type { Bucket, RateLimits } from './rate-limit';

export interface Context {
  limits: RateLimits;
  requestId: string;
  ip: string;
  auth: RequestAuth;
  /** Buckets the HTTP layer already counted this request in (REST paths under /auth, /ai). */
  countedBuckets: Set<Bucket>;
  em: EntityManager;
  services: Services;
  /** The caller's account as stored now (roles and status may have changed since the token). */
  viewer(): Promise<User | null>;
}

export function createContext(deps: Deps, request: Pick<Context, 'requestId' | 'ip' | 'auth' | 'countedBuckets'>): Context {
  const em = deps.orm.em.fork() as EntityManager;
  const services = createServices(em, deps);
  let viewer: Promise<User | null> | undefined;
  return {
    ...request,
    limits: deps.limits,
    em,
    services,
    viewer: () => (viewer ??= request.auth.userId ? services.auth.findUser(request.auth.userId) : Promise.resolve(null)),
  };
}
