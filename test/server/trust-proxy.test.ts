import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';
import { uniqueEmail } from '../support/users';

const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const base = { JWT_SECRET: 'x'.repeat(64), DATA_DIR: '/nonexistent-data-dir-never-created' };

describe('TRUST_PROXY', () => {
  it.each(['true', 'TRUE', 'yes', 'on', 'all', '*', '0.0.0.0/0', '10.0.0.5, ::/0'])(
    'refuses %s, which trusts every hop, and says what to write instead',
    (value) => {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(
        `Invalid configuration: TRUST_PROXY must not trust every proxy: ${value} trusts every X-Forwarded-For entry a client writes; set the number of proxies in front (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.5,10.0.0.6)`,
      );
    },
  );

  it('takes a number of hops or the proxies addresses, and nothing else', () => {
    expect(loadConfig(base).TRUST_PROXY).toBe(0);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(0);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.5',
      '10.0.1.0/24',
      'loopback',
    ]);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'nginx' })).toThrow(
      'Invalid configuration: TRUST_PROXY must be a number of proxies (1) or their addresses',
    );
  });

  it('stops the service at start with one line naming the variable', async () => {
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH, ...base, TRUST_PROXY: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('TRUST_PROXY=1')]);
  });
});

describe('the client behind one trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: '1', RATE_LIMIT_AUTH: '5' });
  });
  afterAll(() => t?.close());

  it('is the address the proxy saw: entries the client wrote before it change no limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      // The proxy appended 203.0.113.7; the client wrote a new address of its own in front each time.
      const forwarded = { 'x-forwarded-for': `10.1.2.${i}, 203.0.113.7` };
      statuses.push(
        (
          await t.http.post(
            '/auth/login',
            { email: uniqueEmail(), password: 'wrong password here' },
            { headers: forwarded },
          )
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Another client of the same proxy has limits of its own.
    const other = await t.http.post(
      '/auth/login',
      { email: uniqueEmail(), password: 'wrong password here' },
      { headers: { 'x-forwarded-for': '10.1.2.0, 203.0.113.8' } },
    );
    expect(other.status).toBe(401);
  });
});
