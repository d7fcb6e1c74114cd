import type { GraphQLResolveInfo } from 'graphql';
import type { ShieldRule } from '../kernel/area';
import type { Context } from '../kernel/context';
import { forbidden } from '../kernel/errors';

interface Resolvable {
  resolve(
    parent: unknown,
    args: unknown,
    ctx: Context,
    info: GraphQLResolveInfo,
    options: unknown,
  ): Promise<boolean | string | Error>;
}

// The options graphql-shield hands its rules; ours are uncached, so only these are read.
const options = {
  debug: false,
  allowExternalErrors: true,
  fallbackRule: undefined,
  fallbackError: forbidden(),
  hashFunction: () => '',
};

/**
 * Evaluates a shield rule where GraphQL does not run it (a streaming route, a file, a subscription
 * being opened): the same rule object the schema uses, for the root field it stands for
 * (`Mutation.aiChat`), so the decision cannot drift.
 */
export async function enforce(
  rule: ShieldRule,
  ctx: Context,
  field: `${'Query' | 'Mutation' | 'Subscription'}.${string}`,
  args: Record<string, unknown> = {},
): Promise<void> {
  const [parentType, fieldName] = field.split('.');
  const info = { parentType: { name: parentType }, fieldName } as unknown as GraphQLResolveInfo;
  const result = await (rule as unknown as Resolvable).resolve(undefined, args, ctx, info, options);
  if (result === true) return;
  throw result instanceof Error ? result : forbidden();
}

/**
 * What a rule answers, as `enforce` reads it, without throwing: `true`, the refusal it returned, or
 * `false` when a rule failed rather than decided (it threw: the database timing out, say). Callers
 * that keep decisions keep only the first two.
 */
export async function evaluateRule(
  rule: ShieldRule,
  ctx: Context,
  field: `${'Query' | 'Mutation' | 'Subscription'}.${string}`,
  args: Record<string, unknown> = {},
): Promise<true | Error | false> {
  const [parentType, fieldName] = field.split('.');
  const info = { parentType: { name: parentType }, fieldName } as unknown as GraphQLResolveInfo;
  const result = await (rule as unknown as Resolvable).resolve(undefined, args, ctx, info, options);
  return result === true || result instanceof Error ? result : false;
}
