import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withFleet } from '../support/fleet';
import { asOwner } from '../support/sql';
import { uniqueEmail } from '../support/users';

// Three instances without Redis (limits counted in PostgreSQL), nginx in front with
// deploy/nginx.conf and TRUST_PROXY=1, as compose runs them: the client is the address nginx saw.
const t = withFleet({ redis: false, env: { RATE_LIMIT_AUTH: '30', RATE_LIMIT_LOGIN_FAILURES: '5' } });

const failedLogin = { password: 'not the password at all' };

describe('the fleet', () => {
  it('runs each instance with two malloc arenas and a heap of 512 MiB, as the image and npm start do', () => {
    for (const instance of t.fleet.instances) {
      const environ = readFileSync(`/proc/${instance.member!.child.pid!}/environ`, 'utf8').split('\0');
      expect(environ, instance.name).toContain('MALLOC_ARENA_MAX=2');
      expect(environ, instance.name).toContain('NODE_OPTIONS=--max-old-space-size=512');
    }
  });
});

describe('a client of the fleet through nginx', () => {
  it('cannot read /metrics without a token, whatever X-Forwarded-For it writes', async () => {
    for (const forwarded of ['127.0.0.1, 8.8.8.8', '127.0.0.1', '::1', undefined]) {
      const response = await fetch(`${t.fleet.proxyUrl}/metrics`, {
        headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
      });
      const text = await response.text();
      expect(response.status, String(forwarded)).toBe(401);
      expect(JSON.parse(text)).toEqual({ error: 'unauthenticated', message: expect.any(String) });
    }
    // A scraper beside an instance, straight to its port, reads it.
    const direct = await fetch(`${t.fleet.instances[0].url}/metrics`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('is limited as the address nginx saw: 36 failed log-ins, each with a new address of its own in front, get 429 after 30', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 36; i++) {
      const forwarded = `10.${i}.${(i * 7) % 256}.${(i * 13) % 256}, 203.0.113.7`;
      const reply = await t.proxy.post(
        '/auth/login',
        { ...failedLogin, email: uniqueEmail('guess') },
        { headers: { 'x-forwarded-for': forwarded } },
      );
      statuses.push(reply.status);
    }
    expect(statuses).toEqual([...Array<number>(30).fill(401), ...Array<number>(6).fill(429)]);
  });

  it('counts a limit once across the instances, in PostgreSQL when there is no Redis', async () => {
    const email = uniqueEmail('guess');
    const statuses: number[] = [];
    // Straight to each instance in turn, from an address of its own (the loopback peer is the trusted hop).
    for (let i = 0; i < 9; i++)
      statuses.push(
        (
          await t.direct[i % 3].post(
            '/auth/login',
            { ...failedLogin, email },
            { headers: { 'x-forwarded-for': '198.51.100.20' } },
          )
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429]);
    // One counter in the shared table, under a digest of the address (no personal data stored).
    const digest = createHash('sha256').update(email).digest('base64url').slice(0, 32);
    expect(await asOwner(t, `select count(*)::int as n from rate_limits where key = 'lfe:' || $1`, [digest])).toEqual([
      { n: 1 },
    ]);
  });
});
