import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticateHeader, signAccessToken } from '../../src/kernel/tokens';
import { Role } from '../../src/kernel/domain';

const settings = {
  JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
  JWT_ISSUER: 'learning-platform',
  JWT_AUDIENCE: 'learning-platform-api',
  ACCESS_TOKEN_TTL: 60,
};
const sub = '00000000-0000-4000-8000-000000000001';

afterEach(() => vi.useRealTimers());

describe('a bearer token checked once, then taken again until it expires', () => {
  it('names the same caller every time, and a change to a caller’s copy reaches no other request', () => {
    const token = signAccessToken(settings, { sub, roles: [Role.learner], region: 'vn' });
    const first = authenticateHeader(settings, `Bearer ${token}`);
    first.roles!.push(Role.admin);
    const again = authenticateHeader(settings, `Bearer ${token}`);
    expect(again).toEqual({
      userId: sub,
      roles: [Role.learner],
      region: 'vn',
      sessionId: undefined,
      expiresAt: expect.any(Number),
    });
  });

  it('refuses the token as expired from its expiry on, though it passed before', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T10:00:00.000Z'));
    const token = signAccessToken(settings, { sub, roles: [Role.learner] });
    expect(authenticateHeader(settings, `Bearer ${token}`).userId).toBe(sub);
    vi.setSystemTime(new Date('2026-11-27T10:00:59.999Z'));
    expect(authenticateHeader(settings, `Bearer ${token}`).userId).toBe(sub);
    vi.setSystemTime(new Date('2026-11-27T10:01:00.000Z'));
    expect(authenticateHeader(settings, `Bearer ${token}`).error?.code).toBe('unauthenticated');
    expect(authenticateHeader(settings, `Bearer ${token}`).error?.reason).toBe('access_token_expired');
  });

  it('refuses a token one character away from one that passed, and a token signed with another secret', () => {
    const token = signAccessToken(settings, { sub, roles: [Role.learner] });
    expect(authenticateHeader(settings, `Bearer ${token}`).userId).toBe(sub);
    // A character of the signature's middle: every bit of it counts.
    const at = token.length - 10;
    const changed = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    expect(authenticateHeader(settings, `Bearer ${changed}`).error?.code).toBe('unauthenticated');
    const other = { ...settings, JWT_SECRET: 'another-secret-that-is-long-enough-for-hs256' };
    expect(authenticateHeader(other, `Bearer ${token}`).error?.code).toBe('unauthenticated');
  });
});
