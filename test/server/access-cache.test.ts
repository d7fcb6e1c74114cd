import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccessCache } from '../../src/kernel/access-cache';
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A cache on the app's own event bus (connected), its clock moved by hand. */
function cacheOf<T>(): AccessCache<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  return new AccessCache<T>(t.app.deps.pubSub, { ttlMs: 60_000, maxEntries: 50_000 });
}

const later = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('values kept per person', () => {
  it('forgets the people seen once when their values expire, not when the cache is full', async () => {
    const cache = cacheOf<string>();
    for (let i = 0; i < 1000; i++) await cache.get(`person-${i}`, async () => 'account');
    expect(cache.size).toBe(1000);
    later(61_000);
    await cache.get('someone new', async () => 'account');
    expect(cache.size).toBe(1);
    cache.close();
  });

  it('keeps a value made again after it expired, and forgets what expired before it', async () => {
    const cache = cacheOf<number>();
    let made = 0;
    const make = async () => ++made;
    await cache.get('a', make);
    later(30_000);
    await cache.get('b', make);
    later(31_000);
    expect(await cache.get('a', make)).toBe(3);
    later(30_000);
    await cache.get('c', make);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', make)).toBe(3);
    cache.close();
  });
});
