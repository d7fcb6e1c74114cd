import type { GraphQLSchema } from 'graphql';
import type { IMiddlewareFieldMap } from 'graphql-middleware';
import { allow, and, deny, shield } from 'graphql-shield';
import { adminRules } from '../admin/admin.rules';
import { aiRules } from '../ai/ai.rules';
import { authRules } from '../auth/auth.rules';
import { certificatesRules } from '../certificates/certificates.rules';
import { coursesRules } from '../courses/courses.rules';
import { factoryRules } from '../factory/factory.rules';
import { progressRules } from '../progress/progress.rules';
import { consentRules } from '../consent/consent.rules';
import { countryPolicyRules } from '../country-policy/country-policy.rules';
import { guardianRules } from '../guardian/guardian.rules';
import { healthRules } from '../health/health.rules';
import { notificationsRules } from '../notifications/notifications.rules';
import { forbidden } from '../server/errors';

type Rule = Parameters<typeof and>[0];
type FieldRules = Record<string, Rule>;
/** An area's rules: per type, one rule for every field, or a rule per field. */
export type AreaRules = Record<string, Rule | FieldRules>;

const isRule = (value: Rule | FieldRules): value is Rule => 'resolve' in value;

/** Merges the areas' maps; a type given as one rule keeps it ('*') for the fields not named. */
export function mergeRules(...areas: AreaRules[]): Record<string, FieldRules> {
  const merged: Record<string, FieldRules> = {};
  for (const area of areas) {
    for (const [type, rules] of Object.entries(area)) {
      merged[type] = { ...merged[type], ...(isRule(rules) ? { '*': rules } : rules) };
    }
  }
  return merged;
}

export const ruleMap = mergeRules(authRules, adminRules, healthRules, notificationsRules, guardianRules, consentRules, countryPolicyRules, aiRules, coursesRules, progressRules, certificatesRules, factoryRules);

/** Deny by default: an operation or type without a rule here is refused as forbidden. */
export function buildPermissions(rules = ruleMap) {
  return shield(rules, {
    fallbackRule: deny,
    fallbackError: forbidden(),
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
export function permissionsFor(schema: GraphQLSchema, rules = ruleMap): IMiddlewareFieldMap {
  const generated = buildPermissions(rules).generate(schema) as IMiddlewareFieldMap;
  for (const [type, fields] of Object.entries(rules)) {
    if (Object.values(fields).every((rule) => rule === (allow as Rule))) delete generated[type];
  }
  return generated;
}

/** A root field anyone may call without a token (for the API description). */
export function isPublicOperation(type: 'Query' | 'Mutation', field: string): boolean {
  const rule = ruleMap[type]?.[field];
  return rule === (allow as Rule) || (rule !== undefined && (rule as { name?: string }).name?.startsWith('throttled(') === true);
}
