import { hash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { AppError } from './errors';
import { memoryStore, type RateLimitStore } from './rate-limit-stores';

/** The kernel's buckets (docs/conventions.md#rate-limits); areas declare their own (`Area.rateLimits`) on the same store. */
export type KernelBucket = 'default' | 'auth' | 'ai' | 'loginFailuresEmail' | 'loginFailuresIp' | 'requestMails';
export type Bucket = KernelBucket | (string & {});

/** A bucket an area declares: `points` per window of `seconds`, per key. */
export interface RateLimitRule {
  points: number;
  seconds: number;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetAt: number;
}

export interface RateLimits {
  /** Where the counters live (docs/conventions.md#rate-limits): shared by every instance unless `memory`. */
  readonly store: RateLimitStore['kind'];
  /** Counts one request against a bucket; throws rate_limited when none is left. */
  consume(bucket: Bucket, key: string): Promise<RateLimitState>;
  /** Throws rate_limited if the bucket is used up, without counting anything. */
  check(bucket: Bucket, key: string): Promise<void>;
  /** Gives back a point counted ahead of an outcome that turned out not to count (a log-in that succeeded). */
  refund(bucket: Bucket, key: string): Promise<void>;
  reset(bucket: Bucket, key: string): Promise<void>;
}

/**
 * The limits of docs/conventions.md#rate-limits, counted in the given store: PostgreSQL or Redis share them between
 * instances; memory (the default here) is one instance's.
 */
export function createRateLimits(
  config: Config,
  store: RateLimitStore = memoryStore(),
  declared: Record<string, RateLimitRule> = {},
): RateLimits {
  const limiters: Record<Bucket, RateLimiterAbstract> = {
    default: store.limiter({ keyPrefix: 'default', points: config.RATE_LIMIT_DEFAULT, duration: 60 }),
    auth: store.limiter({ keyPrefix: 'auth', points: config.RATE_LIMIT_AUTH, duration: 60 }),
    ai: store.limiter({ keyPrefix: 'ai', points: config.RATE_LIMIT_AI, duration: 60 }),
    loginFailuresEmail: store.limiter({
      keyPrefix: 'lfe',
      points: config.RATE_LIMIT_LOGIN_FAILURES,
      duration: 15 * 60,
    }),
    loginFailuresIp: store.limiter({
      keyPrefix: 'lfi',
      points: config.RATE_LIMIT_LOGIN_FAILURES_IP,
      duration: 15 * 60,
    }),
    // Per recipient address: mails that other people's requests send to it (src/mail/deliver.ts).
    requestMails: store.limiter({ keyPrefix: 'rcpt', points: config.RATE_LIMIT_REQUEST_MAILS, duration: 3600 }),
    ...Object.fromEntries(
      Object.entries(declared).map(([bucket, rule]) => [
        bucket,
        store.limiter({ keyPrefix: bucket, points: rule.points, duration: rule.seconds }),
      ]),
    ),
  };
  const state = (bucket: Bucket, res: RateLimiterRes): RateLimitState => ({
    limit: limiters[bucket].points,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + Math.max(0, res.msBeforeNext)) / 1000),
  });
  return {
    store: store.kind,
    async consume(bucket, key) {
      try {
        return state(bucket, await limiters[bucket].consume(counterKey(key)));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw rateLimited(rejection.msBeforeNext, state(bucket, rejection));
        throw rejection;
      }
    },
    async check(bucket, key) {
      const res = await limiters[bucket].get(counterKey(key));
      if (res && res.remainingPoints <= 0) throw rateLimited(res.msBeforeNext, state(bucket, res));
    },
    async refund(bucket, key) {
      await limiters[bucket].reward(counterKey(key), 1);
    },
    async reset(bucket, key) {
      await limiters[bucket].delete(counterKey(key));
    },
  };
}

/**
 * What a counter is stored under: a digest of the user id, IP or e-mail address, so that a shared
 * store (a table, Redis) holds no personal data (an erased account leaves nothing there). Worked out
 * on every request (a third of a microsecond): a map of the digests made, bounded at 10,000 keys,
 * took half an hour of sign-ups to fill in the soak and kept callers not seen for hours.
 */
const counterKey = (key: string): string => hash('sha256', key, 'base64url').slice(0, 32);

export class RateLimitedError extends AppError {
  constructor(
    retryAfter: number,
    readonly state: RateLimitState,
  ) {
    super('rate_limited', `Too many requests. Try again in ${retryAfter} seconds.`, { retryAfter });
  }
}

function rateLimited(msBeforeNext: number, state: RateLimitState): RateLimitedError {
  return new RateLimitedError(Math.max(1, Math.ceil(msBeforeNext / 1000)), state);
}

export function setRateLimitHeaders(res: Pick<ServerResponse, 'setHeader'>, state: RateLimitState): void {
  res.setHeader('X-RateLimit-Limit', state.limit);
  res.setHeader('X-RateLimit-Remaining', state.remaining);
  res.setHeader('X-RateLimit-Reset', state.resetAt);
}
