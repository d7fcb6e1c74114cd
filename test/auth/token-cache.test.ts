import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticateHeader, signAccessToken, tokensKept } from '../../src/kernel/tokens';
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

  it('keeps the tokens of the last lifetime, not every token seen: the expired go as new ones pass', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const own = { ...settings };
    vi.setSystemTime(new Date('2026-11-27T10:00:00.000Z'));
    // Three callers: the same claims in the same second make the same token.
    for (const n of [1, 2, 3]) {
      const caller = `00000000-0000-4000-8000-00000000000${n}`;
      authenticateHeader(own, `Bearer ${signAccessToken(own, { sub: caller, roles: [Role.learner] })}`);
    }
    expect(tokensKept(own)).toBe(3);
    vi.setSystemTime(new Date('2026-11-27T10:00:30.000Z'));
    const later = signAccessToken(own, { sub, roles: [Role.learner] });
    expect(authenticateHeader(own, `Bearer ${later}`).userId).toBe(sub);
    expect(tokensKept(own)).toBe(4);
    vi.setSystemTime(new Date('2026-11-27T10:01:00.000Z'));
    const last = signAccessToken(own, { sub, roles: [Role.admin] });
    expect(authenticateHeader(own, `Bearer ${last}`).roles).toEqual([Role.admin]);
    // The three of 10:00 expired at 10:01 and went; the one of 10:00:30 and the last are kept.
    expect(tokensKept(own)).toBe(2);
    expect(authenticateHeader(own, `Bearer ${later}`).userId).toBe(sub);
  });
});
