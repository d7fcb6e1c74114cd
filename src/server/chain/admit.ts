import type { GraphQLSchema } from 'graphql';
import type { DirectRoute, JsonRoute, RouteRule } from '../../kernel/area';
import type { Context } from '../../kernel/context';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { AppError, databaseUnavailable, forbidden } from '../../kernel/errors';
import { evaluateRule } from '../../permissions/enforce';
import { inputOf } from './input';
import { countDeclared, takeHeldCount } from './limits';

/**
 * An area's JSON route behind the links it declares: its rule (with the rule's limits), then its
 * input. Served before express, a route with a rule counts the request in the default bucket too,
 * with the rule's buckets: the steps hold that count for it (chain/limits.ts). A route that
 * `overlapsCount` is handed the count still under way once the rule has let the request through;
 * any failure before the count is in (its input refused, its own checks) waits for it (429 first).
 */
export function behindChain(route: JsonRoute, schema: GraphQLSchema): DirectRoute {
  const { rule } = route;
  const input = route.input && inputOf(schema, route.input);
  return {
    path: route.path,
    countsCaller: rule !== undefined,
    async handle(ctx, body, req, res) {
      const { counted } = rule ? await admission(ctx, rule, {}, takeHeldCount(req)) : { counted: Promise.resolve() };
      if (!route.overlapsCount) await counted;
      try {
        await route.handle(ctx, input ? await input(body) : body, req, res, counted);
      } catch (failure) {
        // Whatever failed while the count was under way (the input, the route's own checks), a
        // refusal by the limits is the answer (429 before 400).
        await counted;
        throw failure;
      }
    },
  };
}

/**
 * The rule link for the routes that GraphQL does not run (an area's file or page, the AI tutor's
 * stream): the rule of the root field the route stands for, the same rule object the schema uses,
 * then the limits it declares, in the order the operations of GraphQL meet them: whoever may not
 * call hears 401 or 403, not 429, and spends nothing of the rule's buckets. A request whose default
 * count was held for this (`caller`) is counted there in the same round trip, whatever the rule
 * decided: a used-up default bucket answers 429 before the rule's refusal, as it does when the
 * request's steps count it.
 */
export async function admit(
  ctx: Context,
  declared: RouteRule,
  args: Record<string, unknown> = {},
  caller = false,
): Promise<void> {
  const { counted } = await admission(ctx, declared, args, caller);
  await counted;
}

/**
 * `admit` with the count of a caller the rule let through handed back while it is under way: the
 * caller overlaps its own first round trip with the store's, and waits for `counted` (which may
 * refuse it, 429) before anything it cannot take back. A refusal of the rule waits for its count.
 */
async function admission(
  ctx: Context,
  declared: RouteRule,
  args: Record<string, unknown>,
  caller: boolean,
): Promise<{ counted: Promise<void> }> {
  const { userId, error } = ctx.auth;
  const verdict = await (
    declared.verdicts && userId && !error
      ? declared.verdicts.get(userId, () => verdictOf(ctx, declared, args))
      : verdictOf(ctx, declared, args)
  ).catch((failure: unknown) => failure);
  const counted = countDeclared(ctx, verdict === true ? [declared.rule] : [], caller);
  if (verdict !== true) {
    await counted;
    throw verdict;
  }
  // Awaited by the route, perhaps after its own round trip: until then a refusal is not an unhandled one.
  counted.catch(() => undefined);
  return { counted };
}

/**
 * What the rule decides of the caller: `true` or a refusal of the person (401, 403), which a route
 * may keep. A rule that failed rather than decided (the database timing out) is answered as
 * GraphQL answers it (503 when the database is down, else 403), and so is a refusal of anything
 * else (a resource not found): neither is kept.
 */
async function verdictOf(ctx: Context, { rule, field }: RouteRule, args: Record<string, unknown>) {
  const result = await evaluateRule(rule, ctx, field, args);
  if (result === true) return true;
  if (result === false) throw isDatabaseUnavailable(ctx.failure()) ? databaseUnavailable() : forbidden();
  if (result instanceof AppError && (result.status === 401 || result.status === 403)) return result;
  throw result;
}
