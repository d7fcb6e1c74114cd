import { GLOBAL_REGION } from '../db/regions';
import type { UnitOfWork } from './unit-of-work';

/**
 * Runs a write of shared data (courses, products...) where shared data is written: global's database,
 * the one PostgreSQL replicates from; a region's copies are read-only to the service. In a unit of
 * global's the write joins its transaction; from another region's it is a statement of its own on
 * global's pool (an ORM's entity manager there would be taken for the region's open transaction).
 */
export async function writeSharedData(uow: UnitOfWork, sql: string, params: readonly unknown[]): Promise<void> {
  if (uow.deps.region === GLOBAL_REGION) await uow.query(sql, params);
  else await uow.deps.inRegion(GLOBAL_REGION).sql.query(sql, params);
}
