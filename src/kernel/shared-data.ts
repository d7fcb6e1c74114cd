import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_REGION } from '../db/regions';
import type { UnitOfWork } from './unit-of-work';

/**
 * Where this unit writes shared data (courses, products...): global's database, the one PostgreSQL
 * replicates from; a region's copies are read-only to the service. The unit's own when it is
 * global's (the write joins its transaction), else a unit of global's.
 */
export const sharedDataEm = (uow: UnitOfWork): EntityManager =>
  uow.deps.region === GLOBAL_REGION ? uow.em : uow.deps.inRegion(GLOBAL_REGION).unit().uow.em;
