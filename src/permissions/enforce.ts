import type { GraphQLResolveInfo } from 'graphql';
import type { ShieldRule } from '../kernel/area';
import type { Context } from '../kernel/context';
import { forbidden } from '../kernel/errors';

interface Resolvable {
  resolve(parent: unknown, args: unknown, ctx: Context, info: GraphQLResolveInfo, options: unknown): Promise<boolean | string | Error>;
}

// The options graphql-shield hands its rules; ours are uncached, so only these are read.
const options = { debug: false, allowExternalErrors: true, fallbackRule: undefined, fallbackError: forbidden(), hashFunction: () => '' };

/**
 * Evaluates a shield rule where GraphQL does not run it (a streaming route, a file, a subscription
 * being opened): the same rule object the schema uses, so the decision cannot drift.
 */
export async function enforce(rule: ShieldRule, ctx: Context, args: Record<string, unknown> = {}): Promise<void> {
  const result = await (rule as unknown as Resolvable).resolve(undefined, args, ctx, {} as GraphQLResolveInfo, options);
  if (result === true) return;
  throw result instanceof Error ? result : forbidden();
}
