import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
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
 * `admit`). A route that counts its own buckets has the default one counted with them, in the
 * same round trip of the store (`holdCallerCount`). The X-RateLimit-* headers show the tightest
 * bucket counted.
 */

/** What counting a caller reads: who, from where, and where the counted limits are shown. */
export interface CountedCaller {
  auth: Pick<RequestAuth, 'userId'>;
  ip: string;
  showLimit(state: RateLimitState): void;
}

/** Counts one request or operation in the default bucket; rate_limited (shown) when none is left. */
export function countCaller(limits: RateLimits, caller: CountedCaller): Promise<void> {
  return shown(caller, [inDefault(limits, caller)]);
}

const inDefault = (limits: RateLimits, caller: CountedCaller) =>
  limits.consume('default', caller.auth.userId ? `user:${caller.auth.userId}` : `ip:${caller.ip}`);

/**
 * Counts a call in every bucket its rules declare (each bucket once), and first in the default
 * bucket when the request's count was held for it (`holdCallerCount`): all in the same turn, so
 * that a shared store counts them in one round trip. rate_limited when one is used up, the default
 * bucket's refusal first.
 */
export function countDeclared(ctx: Context, rules: ShieldRule[], caller = false): Promise<void> {
  const buckets = new Map(rules.flatMap(limitsDeclaredBy).map((limit) => [limit.bucket, limit]));
  const counts = [...buckets.values()].map(({ bucket, keyOf }) => ctx.limits.consume(bucket, keyOf(ctx)));
  if (caller) counts.unshift(inDefault(ctx.limits, ctx));
  return counts.length === 0 ? Promise.resolve() : shown(ctx, counts);
}

/**
 * The requests whose count in the default bucket is held for their route, to go with the buckets
 * its rule declares (`admit`): the store's round trips would otherwise come one after the other,
 * the default count's before the body is read and the rule's after. Null until the steps have read
 * the caller; taken once, by the route or by the answer that comes before it.
 */
const held = new WeakMap<object, CountedCaller | null>();

/** The route that will serve the request counts it in the default bucket itself, with its rule's buckets. */
export function holdCallerCount(req: object): void {
  held.set(req, null);
}

/** The step that counts every request in the default bucket, or holds the count for the request's route. */
export const countingStep =
  (limits: RateLimits): RequestHandler =>
  (req, _res, next) => {
    const caller = req as typeof req & CountedCaller;
    if (held.has(req)) {
      held.set(req, caller);
      return next();
    }
    void countCaller(limits, caller).then(() => next(), next);
  };

/** Whether the request's default count was held for its route (which counts it now); taken once. */
export function takeHeldCount(req: object): boolean {
  const caller = held.get(req);
  held.delete(req);
  return Boolean(caller);
}

/**
 * What answers a request that failed before its route counted it (a body refused): its held count,
 * counted now, whose refusal comes first as for any other request (429, not 400); else the failure.
 */
export function countedBefore(limits: RateLimits, req: object, failure: unknown): Promise<unknown> {
  const caller = held.get(req);
  held.delete(req);
  if (!caller) return Promise.resolve(failure);
  return countCaller(limits, caller).then(
    () => failure,
    (refusal: unknown) => refusal,
  );
}

/** The buckets are counted at once (with a shared store, together in one round trip); each is shown, a refusal's too. */
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
