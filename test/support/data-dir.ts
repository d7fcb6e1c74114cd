import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A data folder as an operator's mkdir makes one: searchable by other users (mkdtemp's is 0700),
 * so that the embedded PostgreSQL, run as `postgres` when the tests run as root, can reach it.
 */
export function makeDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}
