import {
  coerceInputValue,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromAST,
  type ValueNode,
} from 'graphql';
import type { ShieldRule } from '../kernel/area';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import { badVariable } from '../kernel/validation';
import { evaluateRule } from '../permissions/enforce';
import type { RuleMap } from '../permissions';
import { argumentsReadBy, isAboutCaller, isCountOnly } from '../permissions/rules';

/*
 * docs/errors.md: who may call (401, 403) is decided before what was sent (400). graphql-js coerces
 * variables (and validates literals) before any resolver, so before shield: a caller without the
 * role learnt the operation's input fields from the 400. When the input is about to be refused,
 * the parts of the root fields' rules that depend on the caller alone (a token, a role, a tier, a
 * consent: marked with `aboutCaller`) are evaluated first, the same rule objects shield runs; a
 * refusal answers instead. So are the parts that depend on the caller and the ids the operation
 * names (membership of the school, ownership of the course or project: marked with
 * `aboutCallerAnd`), given those ids when they are well formed: someone else's resource is refused
 * as such whatever the body. Rules that read the rest of the input or count (rate limits) are left
 * to execution, so nothing is counted twice.
 */

type Verdict = true | AppError | undefined;

interface LogicRule {
  getRules(): ShieldRule[];
}

const logicName = (rule: ShieldRule) => (rule as object).constructor.name;

/** What the part of a rule about the caller (and the ids named) decides: `true`, a refusal, or `undefined` when the rest of the input must be seen first. */
async function verdictOf(
  rule: ShieldRule,
  ctx: Context,
  field: `${'Query' | 'Mutation'}.${string}`,
  args: Record<string, unknown>,
): Promise<Verdict> {
  const read = argumentsReadBy(rule);
  if (isAboutCaller(rule) || (read && read.every((name) => Object.hasOwn(args, name)))) {
    const given = Object.fromEntries((read ?? []).map((name) => [name, args[name]]));
    const result = await evaluateRule(rule, ctx, field, given).catch(() => false as const);
    return result === true || result instanceof AppError ? result : undefined;
  }
  // A rate limit is no authorization: it counts at execution, once.
  if (isCountOnly(rule)) return true;
  const kind = logicName(rule);
  if (kind === 'RuleTrue') return true;
  if (kind === 'RuleAnd' || kind === 'RuleChain') {
    // In order: a part that must see the input stops the walk, as a later refusal might not be reached.
    for (const part of (rule as unknown as LogicRule).getRules()) {
      const verdict = await verdictOf(part, ctx, field, args);
      if (verdict !== true) return verdict;
    }
    return true;
  }
  if (kind === 'RuleOr') {
    const verdicts = [];
    for (const part of (rule as unknown as LogicRule).getRules())
      verdicts.push(await verdictOf(part, ctx, field, args));
    if (verdicts.includes(true)) return true;
    return verdicts.every((v) => v instanceof AppError) ? verdicts[0] : undefined;
  }
  return undefined;
}

/** The root fields an operation selects (through fragments at its root too), known to the schema's rules or not. */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): FieldNode[] {
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const fields: FieldNode[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value) && fragments.has(selection.name.value)) {
        seen.add(selection.name.value);
        walk(fragments.get(selection.name.value)!.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return fields.filter((field) => !field.name.value.startsWith('__'));
}

/**
 * The arguments of a root field that are well-formed values of their types, by name: an id the
 * rules may look up. The others (the body that is about to be refused) are left out.
 */
function wellFormedArguments(
  field: GraphQLField<unknown, unknown> | undefined,
  node: FieldNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const argument of node.arguments ?? []) {
    const definition = field?.args.find((a) => a.name === argument.name.value);
    const value = definition ? argumentValue(argument.value, definition.type, variables) : undefined;
    if (value !== undefined && !badVariable({ [argument.name.value]: value })) args[argument.name.value] = value;
  }
  return args;
}

/** A literal, or a variable as it was sent, as a value of `type`; undefined when it is not one. */
function argumentValue(node: ValueNode, type: GraphQLInputType, variables: Record<string, unknown>): unknown {
  // A literal that takes a variable inside is left to the input's check: its variables are not coerced yet.
  if (node.kind !== Kind.VARIABLE) return valueFromAST(node, type);
  const sent = variables[node.name.value];
  if (sent === undefined) return undefined;
  let wellFormed = true;
  const value = coerceInputValue(sent, type, () => {
    wellFormed = false;
  });
  return wellFormed ? value : undefined;
}

/** What the input guard knows of a request when its input is about to be refused. */
export interface GuardedRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
}

/**
 * The first refusal of the caller by the root fields' rules, or null. Fields without a rule of
 * their own (unknown to the schema, or left to deny by default) are left to execution.
 */
export async function callerRefusal(
  rules: RuleMap,
  { schema, document, operation, variables }: GuardedRequest,
  ctx: Context,
): Promise<AppError | null> {
  if (operation.operation === 'subscription') return null;
  const type = operation.operation === 'query' ? 'Query' : 'Mutation';
  const fields = (type === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields() ?? {};
  for (const node of rootFields(document, operation)) {
    const name = node.name.value;
    const rule = rules[type]?.[name] ?? rules[type]?.['*'];
    if (!rule) continue;
    const verdict = await verdictOf(
      rule,
      ctx,
      `${type}.${name}`,
      wellFormedArguments(fields[name], node, variables ?? {}),
    );
    if (verdict instanceof AppError) return verdict;
  }
  return null;
}
