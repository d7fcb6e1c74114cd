import { makeDataDir } from '../support/data-dir';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, PASSWORD_FILE, startEmbeddedPostgres } from '../../src/db/embedded';
import { freePort } from '../support/ports';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function canLogIn(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function query(url: string, text: string) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  it(
    'has a generated password kept in DATA_DIR, refuses postgres:postgres, and listens on loopback only',
    { timeout: 120_000 },
    async () => {
      const dataDir = makeDataDir('lp-embedded-');
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const port = await freePort();
      let postgres: EmbeddedPostgres = await startEmbeddedPostgres(dataDir, port);
      cleanups.push(() => postgres.stop());

      const file = join(dataDir, PASSWORD_FILE);
      const password = readFileSync(file, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(24);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(postgres.url()).toContain(encodeURIComponent(password));
      expect(await canLogIn(postgres.url('postgres'))).toBe(true);
      expect(await canLogIn(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`)).toBe(false);
      const [settings] = await query(
        postgres.url('postgres'),
        "select current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets, current_setting('password_encryption') as encryption",
      );
      expect(settings).toEqual({ listen: '127.0.0.1', sockets: '', encryption: 'scram-sha-256' });

      // The same password after a restart.
      await postgres.stop();
      postgres = await startEmbeddedPostgres(dataDir, port);
      expect(readFileSync(file, 'utf8').trim()).toBe(password);
      expect(await canLogIn(postgres.url('postgres'))).toBe(true);
    },
  );
});
