import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Area } from './area';
import type { Orm } from '../db/orm';
import type { Jobs } from '../jobs/agenda';
import type { Mailer } from '../mail/mailer';
import type { EventPubSub } from './pubsub';
import type { RateLimits } from './rate-limit';
import type { PlainSql } from '../db/plain-sql';

/** What lives as long as the process, shared by every unit of work. Areas keep their own singletons per Deps. */
export interface Deps {
  config: Config;
  log: Logger;
  /** Global's database: the shared data, and the personal data of accounts whose home region is global. */
  orm: Orm;
  /** Each region's database by its name (`global`, `vn`), global's being `orm` (docs/residency.md). */
  regionOrms: ReadonlyMap<string, Orm>;
  /** The hottest statements outside transactions, without the ORM (`uow.query`). */
  sql: PlainSql;
  /** The home region of an account of this country (`vn` for VN, else `global`): the region whose database keeps its personal data. */
  homeRegionOf(country: string): string;
  mailer: Mailer;
  pubSub: EventPubSub;
  limits: RateLimits;
  /** Agenda: started once every area has defined its jobs. */
  jobs: Jobs;
  /** Every area, for the work that spans them all (export, erasure), handed in by the composition root. */
  areas: readonly Area[];
}

/** A process-wide singleton of an area (a circuit breaker, a model client), made once per Deps. */
export function perProcess<T>(make: (deps: Deps) => T): (deps: Deps) => T {
  const made = new WeakMap<Deps, T>();
  return (deps) => {
    let value = made.get(deps);
    if (value === undefined) made.set(deps, (value = make(deps)));
    return value;
  };
}
