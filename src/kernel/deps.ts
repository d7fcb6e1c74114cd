import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Area } from './area';
import type { Orm } from '../db/orm';
import type { Jobs } from '../jobs/agenda';
import type { Mailer } from '../mail/mailer';
import type { EventPubSub } from './pubsub';
import type { RateLimits } from './rate-limit';
import type { PlainSql } from '../db/plain-sql';
import type { Services } from './services';
import type { UnitOfWork } from './unit-of-work';
import { GLOBAL_REGION } from '../db/regions';

/** What lives as long as the process, shared by every unit of work. Areas keep their own singletons per Deps. */
export interface Deps {
  config: Config;
  log: Logger;
  /**
   * The region this view of the process serves (docs/residency.md): its `orm`, `sql` and `jobs` are
   * that region's database's, so a unit of work opened on it reads and writes only there.
   */
  region: string;
  /** The region's database: its accounts' personal data, and its copy of the shared data. */
  orm: Orm;
  /** Each region's database by its name (`global`, `vn`). */
  regionOrms: ReadonlyMap<string, Orm>;
  /** The hottest statements outside transactions, without the ORM (`uow.query`), on the region's database. */
  sql: PlainSql;
  /** The same process seen from another region (`global` for shared data), itself for its own. */
  inRegion(region: string): Deps;
  /** Every region's view, global's first: for the work each region does on its own (relays, jobs, sweeps). */
  readonly regions: readonly Deps[];
  /** A unit of work of its own on this region's database, and its services: for work that starts in one region and belongs to another. */
  unit(): { uow: UnitOfWork; services: Services };
  /** The home region of an account of this country (`vn` for VN, else `global`): the region whose database keeps its personal data. */
  homeRegionOf(country: string): string;
  mailer: Mailer;
  pubSub: EventPubSub;
  limits: RateLimits;
  /** The region's Agenda: started once every area has defined its jobs. */
  jobs: Jobs;
  /** Every area, for the work that spans them all (export, erasure), handed in by the composition root. */
  areas: readonly Area[];
}

/** A process-wide singleton of an area (a circuit breaker, a model client), made once per process whatever the region. */
export function perProcess<T>(make: (deps: Deps) => T): (deps: Deps) => T {
  const once = perRegion(make);
  return (deps) => once(deps.inRegion(GLOBAL_REGION));
}

/** A singleton of an area that keeps or reads personal data (a cache of accounts), one per region of the process. */
export function perRegion<T>(make: (deps: Deps) => T): (deps: Deps) => T {
  const made = new WeakMap<Deps, T>();
  return (deps) => {
    let value = made.get(deps);
    if (value === undefined) made.set(deps, (value = make(deps)));
    return value;
  };
}

/** The view of the caller's home region, as their token names it: global's for anonymous callers and tokens from before regions. */
export const homeOf = (deps: Deps, auth: { region?: string }): Deps => deps.inRegion(auth.region ?? GLOBAL_REGION);
