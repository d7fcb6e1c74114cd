import type { GraphQLSchema } from 'graphql';
import type { IMiddlewareFieldMap } from 'graphql-middleware';
import { allow, deny, shield } from 'graphql-shield';
import type { AreaRules, FieldRules, ShieldRule as Rule } from '../kernel/area';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { Context } from '../kernel/context';
import { databaseUnavailable, forbidden } from '../kernel/errors';

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
      isDatabaseUnavailable(thrown) || isDatabaseUnavailable((ctx as Partial<Context>).failure?.()) ? databaseUnavailable() : forbidden(),
    allowExternalErrors: true,
    debug: false,
  });
}

/**
 * The permission middleware for a schema. Types whose every field is `allow` are left unwrapped:
 * the check would always pass, and wrapping each field of every listed object costs more than the
 * query itself (a page of 100 courses is thousands of fields). Deny by default still holds for
 * every type and field not named in the rules.
 */
export function permissionsFor(schema: GraphQLSchema, rules: RuleMap): IMiddlewareFieldMap {
  const generated = buildPermissions(rules).generate(schema) as IMiddlewareFieldMap;
  for (const [type, fields] of Object.entries(rules)) {
    if (Object.values(fields).every((rule) => rule === (allow as Rule))) delete generated[type];
  }
  return generated;
}

/** A root field anyone may call without a token (for the API description). */
export function isPublicOperation(rules: RuleMap, type: 'Query' | 'Mutation', field: string): boolean {
  const rule = rules[type]?.[field];
  return rule === (allow as Rule) || (rule !== undefined && (rule as { name?: string }).name?.startsWith('throttled(') === true);
}
