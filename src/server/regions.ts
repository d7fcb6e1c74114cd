import { areas } from '../areas';
import { type Config, ConfigError } from '../config';
import { ensureDatabase } from '../db/embedded';
import { migrate, type Orm } from '../db/orm';
import { publishSharedTables, subscribeRegion } from '../db/replication';
import { besideGlobal, databaseOf, GLOBAL_REGION, regionUrlSetting } from '../db/regions';
import { openAppDatabase } from './platform';

/** Every region of the service: global first, then those the areas name (docs/residency.md). */
export const regions: readonly string[] = [
  GLOBAL_REGION,
  ...new Set(areas.flatMap((area) => area.residency?.regions ?? [])),
];

/** An account's home region from its country: the first region an area's rules give it, else global. */
export const homeRegionOf = (country: string): string =>
  areas.map((area) => area.residency?.regionOf(country)).find((region) => region != null) ?? GLOBAL_REGION;

/** The tables of shared data, copied from global's database into every region's. */
export const sharedTables: readonly string[] = areas.flatMap((area) => area.sharedTables ?? []);

/** Each region's database, by its owner's connection string (who migrates it), global's first. */
export type RegionUrls = ReadonlyMap<string, string>;

/**
 * Where each region's database is: its setting (`DATABASE_URL_VN`), else a database beside global's
 * (`learning_platform_vn`), made when missing. A production service with a server of its own
 * (DATABASE_URL) but none for a region refuses to start rather than keep that region's personal data
 * on global's server, where its law does not allow it.
 */
export async function regionUrls(config: Config, globalUrl: string): Promise<RegionUrls> {
  const urls = new Map([[GLOBAL_REGION, globalUrl]]);
  for (const region of regions.filter((name) => name !== GLOBAL_REGION)) {
    const setting = regionUrlSetting(region);
    const configured = (config as unknown as Record<string, string | undefined>)[setting];
    if (!configured && config.NODE_ENV === 'production' && config.DATABASE_URL)
      throw new ConfigError(
        `Invalid configuration: ${setting} must be set when DATABASE_URL is: the personal data of region ${region}'s accounts is kept in that region's own database (docs/residency.md)`,
      );
    const url = configured ?? besideGlobal(globalUrl, region);
    if (!configured) await ensureRegionDatabase(globalUrl, url, setting);
    urls.set(region, url);
  }
  return urls;
}

/** Instances starting together may both find it missing: the second's creation fails on the first's. */
const ALREADY_MADE = new Set(['42P04', '23505']);

async function ensureRegionDatabase(globalUrl: string, url: string, setting: string): Promise<void> {
  try {
    await ensureDatabase(globalUrl, databaseOf(url));
  } catch (error) {
    if (ALREADY_MADE.has((error as { code?: string }).code ?? '')) return;
    throw new Error(
      `the database ${databaseOf(url)} could not be made beside DATABASE_URL's (${error instanceof Error ? error.message : String(error)}): make it, or set ${setting}`,
    );
  }
}

/** Migrates every region's database, each under its own lock (src/db/orm.ts). */
export async function migrateRegions(urls: RegionUrls, log: (message: string) => void): Promise<void> {
  for (const url of urls.values()) {
    const owner = await openAppDatabase(url, log);
    try {
      await migrate(owner);
    } finally {
      await owner.close();
    }
  }
}

/** Opens an ORM on each region's database, as the role the service runs as (`appUrl` of each owner's). */
export async function openRegions(
  appUrls: ReadonlyMap<string, string>,
  log: (message: string) => void,
): Promise<Map<string, Orm>> {
  const orms = new Map<string, Orm>();
  for (const [region, url] of appUrls) orms.set(region, await openAppDatabase(url, log));
  return orms;
}

/**
 * Global publishes the shared tables and each region subscribes to them (src/db/replication.ts), so
 * that a region's queries join courses and products in its own database. Each step is idempotent and
 * taken under a lock: every instance of a fleet runs it at start-up.
 */
export async function replicateSharedData(urls: RegionUrls): Promise<void> {
  if (urls.size < 2) return;
  const globalUrl = urls.get(GLOBAL_REGION)!;
  await publishSharedTables(globalUrl, sharedTables);
  for (const [region, url] of urls) if (region !== GLOBAL_REGION) await subscribeRegion(globalUrl, url, sharedTables);
}
