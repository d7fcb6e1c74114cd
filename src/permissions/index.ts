import type { GraphQLSchema } from 'graphql';
import type { IMiddlewareFieldMap } from 'graphql-middleware';
import { allow, and, deny, shield } from 'graphql-shield';
import type { AreaRules, FieldRules, ShieldRule as Rule } from '../kernel/area';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { Context } from '../kernel/context';
import { databaseUnavailable, forbidden } from '../kernel/errors';
import { allowedWhileDeletionPending, notDeletionPending } from './rules';

export type RuleMap = Record<string, FieldRules>;

const isRule = (value: Rule | FieldRules): value is Rule => 'resolve' in value;

/** Merges the areas' maps; a type given as one rule keeps it ('*') for the fields not named. */
export function mergeRules(...areas: AreaRules[]): RuleMap {
  const merged: RuleMap = {};
  for (const area of areas) {
    for (const [type, rules] of Object.entries(area)) {
      merged[type] = { ...merged[type], ...(isRule(rules) ? { '*': rules } : rules) };
    }
  }
  return merged;
}

/** Deny by default: an operation or type without a rule here is refused as forbidden. */
export function buildPermissions(rules: RuleMap) {
  return shield(rules, {
    fallbackRule: deny,
    // A rule that throws is `false` to shield, which loses the error: a database that is down made
    // every protected field answer 403. The caller's lookup keeps its failure on the context
    // (server/context.ts), so such a refusal answers 503 upstream_unavailable instead.
    fallbackError: async (thrown: unknown, _parent: unknown, _args: unknown, ctx: object) =>
      isDatabaseUnavailable(thrown) || isDatabaseUnavailable((ctx as Partial<Context>).failure?.())
        ? databaseUnavailable()
        : forbidden(),
    allowExternalErrors: true,
    debug: false,
  });
}

/**
 * The permission middleware for a schema, on the fields whose rule can refuse only. A field whose
 * rule is `allow` (named, or its type's '*') is left unwrapped: the check would always pass, and
 * wrapping it costs an async middleware, a rule call and two promise hops per field of every listed
 * object (a page of 20 courses is hundreds of fields), more than the query itself. Shield's own
 * choice of rule is kept (the field's, else its type's '*', else the fallback), so deny by default
 * still holds for every type and field not named in the rules, and every other field keeps
 * exactly the middleware shield generated for it.
 */
export function permissionsFor(schema: GraphQLSchema, rules: RuleMap): IMiddlewareFieldMap {
  const generated = buildPermissions(withReadsRefusedWhilePending(schema, rules)).generate(schema) as Record<
    string,
    Record<string, unknown>
  >;
  for (const [type, fields] of Object.entries(generated)) {
    const typeRules = type === 'Query' ? undefined : rules[type];
    if (!typeRules) continue; // the fallback (deny) for every field
    for (const field of Object.keys(fields)) {
      if ((typeRules[field] ?? typeRules['*']) === (allow as Rule)) delete fields[field];
    }
    if (Object.keys(fields).length === 0) delete generated[type];
  }
  return generated as IMiddlewareFieldMap;
}

/** Every query field's rule, after notDeletionPending (rules.ts): public reads included, so none is left unwrapped. */
function withReadsRefusedWhilePending(schema: GraphQLSchema, rules: RuleMap): RuleMap {
  const query = rules.Query ?? {};
  const guarded: FieldRules = {};
  for (const field of Object.keys(schema.getQueryType()?.getFields() ?? {})) {
    const rule = query[field] ?? query['*'];
    if (rule) guarded[field] = allowedWhileDeletionPending.has(`Query.${field}`) ? rule : and(notDeletionPending, rule);
  }
  return { ...rules, Query: guarded };
}

/** A root field anyone may call without a token (for the API description). */
export function isPublicOperation(rules: RuleMap, type: 'Query' | 'Mutation', field: string): boolean {
  const rule = rules[type]?.[field];
  return (
    rule === (allow as Rule) ||
    (rule !== undefined && (rule as { name?: string }).name?.startsWith('throttled(') === true)
  );
}
