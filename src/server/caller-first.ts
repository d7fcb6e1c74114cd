import { HeaderMap } from '@apollo/server';
import { type DocumentNode, type FragmentDefinitionNode, GraphQLError, Kind, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { ShieldRule } from '../kernel/area';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import { evaluateRule } from '../permissions/enforce';
import type { RuleMap } from '../permissions';
import { isAboutCaller, isCountOnly } from '../permissions/rules';

/*
 * DESIGN.md 4.2: who may call (401, 403) is decided before what was sent (400). graphql-js coerces
 * variables (and validates literals) before any resolver, so before shield: a caller without the
 * role learnt the operation's input fields from the 400. When the input is about to be refused,
 * the parts of the root fields' rules that depend on the caller alone (a token, a role, a tier, a
 * consent: marked with `aboutCaller`) are evaluated first, the same rule objects shield runs; a
 * refusal answers instead. Rules that read the arguments (ownership) or count (rate limits) are
 * left to execution, so nothing is counted twice.
 */

type Verdict = true | AppError | undefined;

interface LogicRule {
  getRules(): ShieldRule[];
}

const logicName = (rule: ShieldRule) => (rule as object).constructor.name;

/** What the caller-only part of a rule decides: `true`, a refusal, or `undefined` when the arguments must be seen first. */
async function verdictOf(rule: ShieldRule, ctx: Context, field: `${'Query' | 'Mutation'}.${string}`): Promise<Verdict> {
  if (isAboutCaller(rule)) {
    const result = await evaluateRule(rule, ctx, field).catch(() => false as const);
    return result === true || result instanceof AppError ? result : undefined;
  }
  // A rate limit is no authorization: it counts at execution, once.
  if (isCountOnly(rule)) return true;
  const kind = logicName(rule);
  if (kind === 'RuleTrue') return true;
  if (kind === 'RuleAnd' || kind === 'RuleChain') {
    // In order: a part that must see the arguments stops the walk, as a later refusal might not be reached.
    for (const part of (rule as unknown as LogicRule).getRules()) {
      const verdict = await verdictOf(part, ctx, field);
      if (verdict !== true) return verdict;
    }
    return true;
  }
  if (kind === 'RuleOr') {
    const verdicts = [];
    for (const part of (rule as unknown as LogicRule).getRules()) verdicts.push(await verdictOf(part, ctx, field));
    if (verdicts.includes(true)) return true;
    return verdicts.every((v) => v instanceof AppError) ? verdicts[0] : undefined;
  }
  return undefined;
}

/** The root fields an operation selects (through fragments at its root too), known to the schema's rules or not. */
function rootFields(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value) && fragments.has(selection.name.value)) {
        seen.add(selection.name.value);
        walk(fragments.get(selection.name.value)!.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...names].filter((name) => !name.startsWith('__'));
}

/**
 * The first refusal of the caller by the root fields' rules, or null. Fields without a rule of
 * their own (unknown to the schema, or left to deny by default) are left to execution.
 */
export async function callerRefusal(rules: RuleMap, document: DocumentNode, operation: OperationDefinitionNode, ctx: Context): Promise<AppError | null> {
  if (operation.operation === 'subscription') return null;
  const type = operation.operation === 'query' ? 'Query' : 'Mutation';
  for (const name of rootFields(document, operation)) {
    const rule = rules[type]?.[name] ?? rules[type]?.['*'];
    if (!rule) continue;
    const verdict = await verdictOf(rule, ctx, `${type}.${name}`);
    if (verdict instanceof AppError) return verdict;
  }
  return null;
}

/** A refusal before execution as Apollo sends it: our code, and the status REST gives it. */
export function refusalError(refusal: AppError): GraphQLError {
  return new GraphQLError(refusal.message, {
    originalError: refusal,
    extensions: { code: refusal.code.toUpperCase(), ...refusal.extra, http: { status: refusal.status, headers: new HeaderMap() } },
  });
}
