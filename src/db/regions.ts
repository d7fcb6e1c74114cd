/** The region of every account whose country's law names no place, and the home of the shared data. */
export const GLOBAL_REGION = 'global';

/** The setting that gives a region's database: `DATABASE_URL` for global, `DATABASE_URL_VN` for `vn`. */
export const regionUrlSetting = (region: string): string =>
  region === GLOBAL_REGION ? 'DATABASE_URL' : `DATABASE_URL_${region.toUpperCase()}`;

/** The region a country policy's `dataResidency` (a country code) names, if any. */
export const residencyRegion = (dataResidency: string | null | undefined): string | null =>
  dataResidency ? dataResidency.toLowerCase() : null;

/** A region's database named after global's: `learning_platform_vn` beside `learning_platform`. */
export const regionDatabaseName = (globalDatabase: string, region: string): string =>
  region === GLOBAL_REGION ? globalDatabase : `${globalDatabase}_${region}`;

/**
 * A region's database on global's server: the embedded server's, and any server of development or tests.
 */
export function besideGlobal(globalUrl: string, region: string): string {
  const url = new URL(globalUrl);
  url.pathname = `/${encodeURIComponent(regionDatabaseName(databaseOf(globalUrl), region))}`;
  return url.toString();
}

/** The database a connection string names. */
export const databaseOf = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));
