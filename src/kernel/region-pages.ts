import type { Deps } from './deps';
import { newestFirst, type Page, type Position, toPage } from './pagination';

/** One region's part of a list: up to `first + 1` rows after the cursor, newest first, and how to count them all. */
export interface RegionPart<T> {
  rows: T[];
  count: () => Promise<number>;
}

/**
 * A list an admin reads across every region, newest first, a page at a time: each region's database
 * gives its next `first + 1` rows after the cursor, and the parts merge in the one order every cursor
 * follows, so a cursor stays valid whichever region its row is in. `part` reads one region's rows,
 * given that region's view of the process.
 */
export async function acrossRegions<T extends Position>(
  deps: Deps,
  first: number,
  after: string | null | undefined,
  part: (region: Deps) => Promise<RegionPart<T>>,
): Promise<Page<T>> {
  const parts = await Promise.all(deps.regions.map(part));
  const rows = newestFirst(parts.flatMap((region) => region.rows)).slice(0, first + 1);
  return toPage(rows, first, after, async () =>
    (await Promise.all(parts.map((region) => region.count()))).reduce((sum, count) => sum + count, 0),
  );
}
