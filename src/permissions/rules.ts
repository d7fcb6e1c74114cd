import { and, rule } from 'graphql-shield';
import type { GraphQLResolveInfo } from 'graphql';
import { AccountStatus, includesTier, Role, Tier } from '../kernel/domain';
import type { Context } from '../kernel/context';
import { accountSuspended, AppError, forbidden, unauthenticated } from '../kernel/errors';
export { accountSuspended };

import type { Bucket } from '../kernel/rate-limit';
import { accountGone, deletionPending, emailNotVerified, onlyTheAccount, tierRequired } from './permissions.errors';

// Rules read the caller from a context built for each request and operation, so no decision is
// cached beyond it ('no_cache'); a rule returns (never throws) the error the client should see.

type ShieldRule = Parameters<typeof and>[0];
const named = new Map<string, ShieldRule>();

/**
 * graphql-shield refuses two rules of one name, and rule factories (hasRole, hasConsent, ...) are
 * called by several areas: each name is built once and shared.
 */
export function namedRule(name: string, build: () => ShieldRule): ShieldRule {
  let built = named.get(name);
  if (!built) named.set(name, (built = build()));
  return built;
}

const callerOnly = new WeakSet<object>();

/**
 * Marks a rule that decides from the caller alone (token, account state, role, tier, consent): it
 * reads neither the arguments nor the parent and counts nothing, so it may run before the input is
 * checked (server/caller-first.ts), as docs/errors.md orders the checks.
 */
export function aboutCaller<T extends ShieldRule>(rule: T): T {
  callerOnly.add(rule as object);
  return rule;
}

export const isAboutCaller = (rule: ShieldRule): boolean => callerOnly.has(rule as object);

const idsRead = new WeakMap<object, readonly string[]>();

/**
 * Marks a rule that decides from the caller and the named arguments alone, the ids of what it is
 * about (a school, a course, a project): it reads no parent and counts nothing, so it may run
 * before the rest of the input is checked, given those arguments (server/caller-first.ts). Whoever
 * may not touch the resource hears so (403, or 404 where it is not theirs to know of) before
 * hearing what is wrong with what they sent.
 */
export function aboutCallerAnd<T extends ShieldRule>(args: readonly string[], rule: T): T {
  idsRead.set(rule as object, args);
  return rule;
}

/** The arguments a rule marked with `aboutCallerAnd` reads, or undefined. */
export const argumentsReadBy = (rule: ShieldRule): readonly string[] | undefined => idsRead.get(rule as object);

/** A service's check as a rule answers it: true when it passes, the refusal it threw when it does not (other failures are thrown on). */
export async function refusalOf(check: () => Promise<unknown>): Promise<true | AppError> {
  try {
    await check();
    return true;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const limitsOnly = new WeakSet<object>();

/** Marks a rule that only counts a request against a rate limit: no authorization, so the check of the caller looks past it. */
const countsOnly = <T extends ShieldRule>(rule: T): T => (limitsOnly.add(rule as object), rule);

export const isCountOnly = (rule: ShieldRule): boolean => limitsOnly.has(rule as object);

/**
 * What an account whose erasure is scheduled may still do (docs/domain.md#privacy-operations): read itself, see its
 * privacy requests and cancel. Fields of object types are not operations: their root was checked.
 */
export const allowedWhileDeletionPending = new Set([
  'Query.me',
  'Query.viewer',
  'Query.gdprRequests',
  'Query.gdprRequest',
  'Mutation.cancelGdprRequest',
]);

/**
 * Whether a field is refused to an account whose erasure is pending: every operation but the
 * allowed ones, and under `me`/`viewer` every field of the account beyond itself (its projects,
 * payments, notifications...: GET /auth/me's twin is the account's own fields, which need no rule).
 */
function refusedWhilePending(info: GraphQLResolveInfo): boolean {
  const root = info.parentType.name;
  if (root === 'Query' || root === 'Mutation' || root === 'Subscription')
    return !allowedWhileDeletionPending.has(`${root}.${info.fieldName}`);
  return root === 'User';
}

/**
 * Put before the rule of every query field (server/permissions): a read that needs no sign-in
 * (`node`, `nodes`, the catalog) is refused to a signed-in account whose erasure is pending, as
 * every REST read but GET /auth/me and the privacy requests is (docs/domain.md#privacy-operations). Anonymous callers
 * and refused tokens pass on to the field's own rule; the account is the request's, read once.
 */
export const notDeletionPending = rule('notDeletionPending', { cache: 'no_cache' })(async (
  _parent,
  _args,
  ctx: Context,
  info: GraphQLResolveInfo,
) => {
  if (ctx.auth.error || !ctx.auth.userId) return true;
  const viewer = await ctx.caller();
  return viewer?.status !== AccountStatus.deletion_pending || !refusedWhilePending(info) || deletionPending();
});

export const isAuthenticated = aboutCaller(
  rule('isAuthenticated', { cache: 'no_cache' })(async (_parent, _args, ctx: Context, info: GraphQLResolveInfo) => {
    if (ctx.auth.error) return ctx.auth.error;
    if (!ctx.auth.userId) return unauthenticated();
    const viewer = await ctx.caller();
    if (!viewer || viewer.status === AccountStatus.erased) return accountGone();
    if (viewer.status === AccountStatus.suspended) return accountSuspended();
    if (viewer.status === AccountStatus.deletion_pending && refusedWhilePending(info)) return deletionPending();
    return true;
  }),
);

/** A field of an account (User) that only the account itself reads: its inbox, its links, its payments, its AI conversations. */
export const isSelf = namedRule('isSelf', () =>
  and(
    isAuthenticated,
    rule('isSelf', { cache: 'no_cache' })(
      async (parent: { id: string }, _args, ctx: Context) => parent.id === ctx.auth.userId || onlyTheAccount(),
    ),
  ),
);

export const hasRole = (...roles: Role[]) =>
  namedRule(`hasRole(${roles.join(',')})`, () =>
    and(
      isAuthenticated,
      aboutCaller(
        rule(`hasRole(${roles.join(',')})`, { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
          const viewer = await ctx.caller();
          return viewer!.roles.some((role) => roles.includes(role)) || forbidden();
        }),
      ),
    ),
  );

/** Features of a paid tier: the caller's tier (from their entitlements) is at least `tier`. */
export const tierAtLeast = (tier: Tier) =>
  namedRule(`tierAtLeast(${tier})`, () =>
    and(
      isAuthenticated,
      aboutCaller(
        rule(`tierAtLeast(${tier})`, { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
          const viewer = await ctx.caller();
          return includesTier(viewer!.tier, tier) || tierRequired(tier);
        }),
      ),
    ),
  );

/** Admins and content admins: who edits courses and runs the course factory. */
export const isContentEditor = hasRole(Role.content_admin, Role.admin);

export const isVerified = and(
  isAuthenticated,
  aboutCaller(
    rule('isVerified', { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
      const viewer = await ctx.caller();
      return viewer!.emailVerified || emailNotVerified();
    }),
  ),
);

const callerKey = (bucket: Bucket, ctx: Context) =>
  bucket === 'auth' ? `ip:${ctx.ip}` : `user:${ctx.auth.userId ?? ctx.ip}`;

/** A limit a rule declares: its bucket, and whom a call counts against. */
export interface DeclaredLimit {
  bucket: Bucket;
  keyOf(ctx: Context): string;
}

const declaredLimits = new WeakMap<object, DeclaredLimit>();

/**
 * Declares that a field's calls count in a stricter bucket, by the caller (the IP for sign-in) or by
 * what `keyOf` says. The rule itself decides nothing: the request chain counts every limit a root
 * field's rule declares (`limitsDeclaredBy`) before the rule runs, whichever way the call came in, so
 * a call is counted once and in one place.
 */
export const throttled = (bucket: Bucket, keyOf: (ctx: Context) => string = (ctx) => callerKey(bucket, ctx)) =>
  namedRule(`throttled(${bucket})`, () => {
    const declared = countsOnly(rule(`throttled(${bucket})`, { cache: 'no_cache' })(async () => true));
    declaredLimits.set(declared as object, { bucket, keyOf });
    return declared;
  });

/** The limits a rule declares, in it or in the rules it combines (and, or, chain), in their order. */
export function limitsDeclaredBy(shieldRule: ShieldRule): DeclaredLimit[] {
  const own = declaredLimits.get(shieldRule as object);
  if (own) return [own];
  const parts = (shieldRule as { getRules?: () => ShieldRule[] }).getRules?.() ?? [];
  return parts.flatMap(limitsDeclaredBy);
}
