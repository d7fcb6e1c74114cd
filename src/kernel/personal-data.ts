import { type EntityClass, type FilterQuery, wrap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from './unit-of-work';

/**
 * Helpers for the areas' personal-data handlers (`personalData.export` / `erase` in each area's
 * index.ts). An export is plain JSON; a value that is an async iterable is written to the archive
 * element by element, so a table of any size passes through in pages and memory stays flat.
 */

export const EXPORT_PAGE_SIZE = 1000;

/** An entity as plain JSON: relations as ids, hidden properties (password hashes) left out. */
export function plain(entity: any): Record<string, unknown> {
  return wrap(entity).toObject() as Record<string, unknown>;
}

/** Every row of `entity` matching `where`, read a page at a time in a fresh entity manager per page. */
export async function* rowsOf<T extends object>(
  uow: UnitOfWork,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
  present: (row: T) => Record<string, unknown> = plain,
  primaryKey = 'id',
): AsyncIterable<Record<string, unknown>> {
  let after: unknown;
  for (;;) {
    const page = (uow.em as EntityManager).fork({ clear: true });
    const filter = (
      after === undefined ? where : { $and: [where, { [primaryKey]: { $gt: after } }] }
    ) as FilterQuery<T>;
    const rows = await page.find(entity, filter, {
      orderBy: { [primaryKey]: 'asc' } as never,
      limit: EXPORT_PAGE_SIZE,
    });
    for (const row of rows) yield present(row);
    if (rows.length < EXPORT_PAGE_SIZE) return;
    after = (rows.at(-1) as Record<string, unknown>)[primaryKey];
  }
}

/** Rows of a small table at once, as plain JSON. */
export async function allRowsOf<T extends object>(
  uow: UnitOfWork,
  entity: EntityClass<T>,
  where: FilterQuery<T>,
): Promise<Record<string, unknown>[]> {
  return (await uow.em.find(entity, where)).map(plain);
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** Calls `work` until it succeeds, up to `retries` more times, waiting `delayMs`, then twice that, and so on. */
export async function withBackoff<T>(retries: number, delayMs: number, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * 2 ** attempt));
    }
  }
}
