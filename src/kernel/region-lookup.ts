import type { Deps } from './deps';

/**
 * The region whose database answers `probe` with a row (`select 1 from … where … limit 1`): for the
 * ways in that name a row by an id or a token and carry no region (a webhook, a mailed token, an
 * admin's action on someone's row). Every region is asked at once; null when none has it.
 */
export async function regionHolding(deps: Deps, probe: string, params: readonly unknown[]): Promise<Deps | null> {
  const views = deps.regions;
  if (views.length === 1) return views[0];
  const found = await Promise.all(
    views.map(async (view) => ((await view.sql.query(probe, params)).length ? view : null)),
  );
  return found.find((view) => view !== null) ?? null;
}
