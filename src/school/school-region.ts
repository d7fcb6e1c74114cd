import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../kernel/deps';
import { regionHolding } from '../kernel/region-lookup';
import type { UnitOfWork } from '../kernel/unit-of-work';

/**
 * A school, its classes and their members are kept in the database of the school's country's region.
 * Its staff call from that region, but a platform admin (global) or a teacher of another school may
 * name it by id from anywhere: such rows are read where they are, and the region each was found in is
 * remembered, so that what is then done with them is done in a unit of work of that region.
 */
const foundIn = new WeakMap<object, string>();

/** The region whose database a row of this area was read from. */
export const regionOfRow = (deps: Deps, row: object): string => foundIn.get(row) ?? deps.region;

/**
 * The rows of these ids in this unit's database, then those not found here in the other regions'
 * (each read in a unit of work of its own region): one statement when every row is here.
 */
export async function hereThenElsewhere<T extends { id: string }>(
  uow: UnitOfWork,
  ids: string[],
  read: (em: EntityManager, ids: string[]) => Promise<T[]>,
): Promise<T[]> {
  const here = await read(uow.em, ids);
  const missing = ids.filter((id) => !here.some((row) => row.id === id));
  if (!missing.length) return here;
  const others = uow.deps.regions.filter((view) => view.region !== uow.deps.region);
  const found = await Promise.all(
    others.map(async (view) => {
      const rows = await read(view.unit().uow.em, missing);
      for (const row of rows) foundIn.set(row, view.region);
      return rows;
    }),
  );
  return [...here, ...found.flat()];
}

/** Whether another region's database has a class with this join code: its school is not the caller's region's. */
export async function codeOfAnotherRegion(deps: Deps, code: string): Promise<boolean> {
  const held = await regionHolding(deps, 'select 1 from school_classes where join_code = ? limit 1', [code]);
  return held !== null && held.region !== deps.region;
}

const MADE_BY = [
  ['schools', 'created_by_id'],
  ['school_classes', 'created_by_id'],
  ['class_courses', 'assigned_by_id'],
] as const;

/**
 * What an erased account made (schools, classes, assignments) is the school's and stays, naming the
 * pseudonym, in every region's database: a platform admin makes schools in their countries' regions.
 * Here in the erasure's transaction, elsewhere on its own (the pseudonym is the same on a retry).
 */
export async function madeByPseudonym(uow: UnitOfWork, userId: string, pseudonym: string): Promise<void> {
  for (const view of uow.deps.regions) {
    const query = view.region === uow.deps.region ? uow.query.bind(uow) : view.sql.query.bind(view.sql);
    for (const [table, column] of MADE_BY)
      await query(`update ${table} set ${column} = ? where ${column} = ?`, [pseudonym, userId]);
  }
}
