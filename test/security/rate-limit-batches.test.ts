import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createRateLimits, RateLimitedError, type RateLimits } from '../../src/kernel/rate-limit';
import { postgresStore, type RateLimitStore } from '../../src/kernel/rate-limit-stores';
import { createTestDatabase } from '../support/app';

/**
 * The database's counters are written in batches (every increment that arrives while
 * statements are under way goes in the next one). Batching must not change a single answer: under
 * any mix of concurrent requests, exactly the limit of each key passes, each passing request sees
 * a remaining count no other request of its key saw, and two instances on one table share the limit.
 */
const LIMIT = 7;
const silent = pino({ level: 'silent' });
let stores: RateLimitStore[] = [];
let instances: RateLimits[] = [];

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, RATE_LIMIT_DEFAULT: String(LIMIT) });
  stores = [await postgresStore(databaseUrl, silent), await postgresStore(databaseUrl, silent)];
  instances = stores.map((store) => createRateLimits(config, store));
});

afterAll(async () => {
  for (const store of stores) await store.close();
});

describe('rate-limit counters written in batches', () => {
  it(
    'let exactly the limit of each key through, with distinct remaining counts, whatever the mix of keys and instances',
    { timeout: 120_000 },
    async () => {
      let round = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ key: fc.integer({ min: 0, max: 4 }), instance: fc.integer({ min: 0, max: 1 }) }), {
            minLength: 1,
            maxLength: 60,
          }),
          async (requests) => {
            round++;
            const answers = await Promise.all(
              requests.map(({ key, instance }) =>
                instances[instance].consume('default', `user:round-${round}-${key}`).then(
                  (state) => ({ key, remaining: state.remaining }),
                  (error: unknown) => {
                    if (error instanceof RateLimitedError) return { key, remaining: null };
                    throw error;
                  },
                ),
              ),
            );
            for (let key = 0; key <= 4; key++) {
              const asked = requests.filter((r) => r.key === key).length;
              const passed = answers.filter((a) => a.key === key && a.remaining !== null).map((a) => a.remaining!);
              expect(passed).toHaveLength(Math.min(asked, LIMIT));
              // Each passing request saw the count after its own increment: LIMIT-1, LIMIT-2, ... once each.
              expect(passed.sort((a, b) => b - a)).toEqual(
                Array.from({ length: passed.length }, (_, i) => LIMIT - 1 - i),
              );
            }
          },
        ),
        { numRuns: 25 },
      );
    },
  );

  it('refuse every request beyond the limit with its retry time, on either instance', async () => {
    const key = 'user:after-the-limit';
    await Promise.all(Array.from({ length: LIMIT }, (_, i) => instances[i % 2].consume('default', key)));
    const refusals = await Promise.allSettled([
      instances[0].consume('default', key),
      instances[1].consume('default', key),
    ]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected');
      const error = (refusal as PromiseRejectedResult).reason as RateLimitedError;
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error.toBody()).toEqual({
        error: 'rate_limited',
        message: expect.any(String),
        retryAfter: expect.any(Number),
      });
      expect(error.state.remaining).toBe(0);
    }
  });
});
