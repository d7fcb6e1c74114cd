import type { ServerResponse } from 'node:http';
import type { ShieldRule } from '../../kernel/area';
import type { Context } from '../../kernel/context';
import { type RateLimits, RateLimitedError, type RateLimitState, setRateLimitHeaders } from '../../kernel/rate-limit';
import type { RequestAuth } from '../../kernel/tokens';
import type { RuleMap } from '../../permissions';
import { limitsDeclaredBy } from '../../permissions/rules';
import { callerRefusal, type GuardedRequest, rootFields } from '../caller-first';
import { graphqlRefusal } from './errors';

/*
 * The limits link of the chain, the one place each limit is decided: every request and socket
 * operation counts in the default bucket by its caller (the user, else the IP); a call of a root
 * field counts besides in each bucket the field's rule declares (`throttled`), whichever way it came
 * in (REST, GraphQL and the socket through Apollo, `countOperation`; an area's own route through
 * `admit`). The
 * X-RateLimit-* headers show the tightest bucket counted.
 */

/** What counting a caller reads: who, from where, and where the counted limits are shown. */
export interface CountedCaller {
  auth: Pick<RequestAuth, 'userId'>;
  ip: string;
  showLimit(state: RateLimitState): void;
}

/** Counts one request or operation in the default bucket; rate_limited (shown) when none is left. */
export function countCaller(limits: RateLimits, caller: CountedCaller): Promise<void> {
  const key = caller.auth.userId ? `user:${caller.auth.userId}` : `ip:${caller.ip}`;
  return shown(caller, [limits.consume('default', key)]);
}

/** Counts a call in every bucket its rules declare (each bucket once); rate_limited when one is used up. */
export function countDeclared(ctx: Context, rules: ShieldRule[]): Promise<void> {
  const buckets = new Map(rules.flatMap(limitsDeclaredBy).map((limit) => [limit.bucket, limit]));
  if (buckets.size === 0) return Promise.resolve();
  return shown(
    ctx,
    [...buckets.values()].map(({ bucket, keyOf }) => ctx.limits.consume(bucket, keyOf(ctx))),
  );
}

/** The buckets are counted at once (with a shared store each is a round trip); each is shown, a refusal's too. */
async function shown(caller: Pick<CountedCaller, 'showLimit'>, counts: Promise<RateLimitState>[]): Promise<void> {
  const settled = await Promise.allSettled(counts);
  for (const result of settled) {
    if (result.status === 'fulfilled') caller.showLimit(result.value);
    else if (result.reason instanceof RateLimitedError) caller.showLimit(result.reason.state);
  }
  const refused = settled.find((result) => result.status === 'rejected');
  if (refused) throw refused.reason;
}

/** How an HTTP answer shows its limits: the tightest of those counted for it (the fewest left) in its headers. */
export function limitHeadersOn(
  res: Pick<ServerResponse, 'setHeader' | 'headersSent'>,
): (state: RateLimitState) => void {
  let tightest: RateLimitState | undefined;
  return (state) => {
    if (tightest && tightest.remaining <= state.remaining) return;
    tightest = state;
    if (!res.headersSent) setRateLimitHeaders(res, state);
  };
}

/**
 * The limits an operation's root fields declare, counted once the operation is known and its input
 * is sound (server/input-guard.ts), after the rules have been put to the caller (caller-first.ts):
 * whoever may not call hears 401 or 403, not 429, and spends nothing. A refusal answers 429 with
 * Retry-After (over HTTP; a REST row's answer reads the same error).
 */
export async function countOperation(rules: RuleMap, request: GuardedRequest, ctx: Context): Promise<void> {
  const type = rootTypes[request.operation.operation];
  const declared = rootFields(request.document, request.operation)
    .map((field) => rules[type]?.[field.name.value] ?? rules[type]?.['*'])
    .filter((rule): rule is ShieldRule => rule !== undefined && limitsDeclaredBy(rule).length > 0);
  if (declared.length === 0) return;
  const refusal = await callerRefusal(rules, request, ctx);
  if (refusal) throw graphqlRefusal(refusal);
  try {
    await countDeclared(ctx, declared);
  } catch (error) {
    throw error instanceof RateLimitedError ? graphqlRefusal(error) : error;
  }
}

const rootTypes = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' } as const;
