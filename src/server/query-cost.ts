import { type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import {
  type DocumentNode,
  type FieldNode,
  getNamedType,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  validate,
  type ValueNode,
  type VariableDefinitionNode,
} from 'graphql';

/** What `first` may ask for at most (PageArgs): a variable of unknown value is priced at it. */
const MAX_PAGE = 100;

/**
 * Prices an operation before it runs as the rows it may read: every field costs 1, and what is
 * selected under a list costs once per element the list may hold. A connection holds `first`
 * elements (its value, a variable's default, or 100 when a variable has none); `nodes(ids:)` as
 * many as its ids; another list as many as its field's `complexity` says (a course's lessons), else
 * 1. A connection whose field gives a `complexity` holds at most that many whatever `first` asks
 * (a guardian's learners: 5). So 100 learners x 100 courses x 100 lessons costs a million, and is
 * refused; the guardian's dashboard (5 x 20 courses) costs a few thousand.
 */
function queryCostRule(maxCost: number, variables: Record<string, unknown> = {}): ValidationRule {
  return (context: ValidationContext) => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const root =
        operation.operation === 'query'
          ? context.getSchema().getQueryType()
          : operation.operation === 'mutation'
            ? context.getSchema().getMutationType()
            : context.getSchema().getSubscriptionType();
      if (!root) return;
      const defaults = variableValues(operation.variableDefinitions ?? [], variables);
      const cost = selectionCost(context, operation.selectionSet, root, defaults, new Set());
      if (cost > maxCost) {
        context.reportError(
          new GraphQLError(tooExpensive(cost, maxCost), {
            nodes: [operation],
            extensions: {
              code: 'VALIDATION_FAILED',
              details: [{ field: 'query', message: tooExpensive(cost, maxCost) }],
              cost,
              maxCost,
            },
          }),
        );
      }
    },
  });
}

const tooExpensive = (cost: number, maxCost: number) =>
  `The query is too expensive: it may read ${cost} fields, above the limit of ${maxCost} (a list counts what is under it once per element it may hold; ask for smaller pages).`;

type Defaults = Map<string, ValueNode | undefined>;

/** Each variable's value as a literal: the one sent, else its default. */
function variableValues(definitions: readonly VariableDefinitionNode[], variables: Record<string, unknown>): Defaults {
  return new Map(
    definitions.map((d) => {
      const sent = variables[d.variable.name.value];
      if (typeof sent === 'number' && Number.isInteger(sent))
        return [d.variable.name.value, { kind: Kind.INT, value: String(sent) } as ValueNode];
      if (Array.isArray(sent))
        return [
          d.variable.name.value,
          { kind: Kind.LIST, values: sent.map(() => ({ kind: Kind.NULL })) } as unknown as ValueNode,
        ];
      return [d.variable.name.value, d.defaultValue];
    }),
  );
}

/**
 * The cost check for GraphQL over HTTP and the WebSocket, where the variables are known once the operation is
 * resolved (validation is cached per document, so it cannot see them): refused before it runs,
 * with 400 validation_failed.
 */
export function queryCostPlugin<T extends object>(maxCost: number): ApolloServerPlugin<T> {
  // The price of a document with the values of its variables that can change it (integers and
  // lists): Apollo hands the same parsed document to every request of one text, so a REST row or a
  // client's usual query is priced once, not walked again on every request.
  const priced = new WeakMap<DocumentNode, Map<string, GraphQLError | null>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }) {
          const variables = request.variables ?? {};
          const key = pricingKey(document, variables);
          let byVariables = priced.get(document);
          let error = byVariables?.get(key);
          if (error === undefined) {
            error = validate(schema, document, [queryCostRule(maxCost, variables)])[0] ?? null;
            if (!byVariables || byVariables.size >= PRICES_PER_DOCUMENT)
              priced.set(document, (byVariables = new Map()));
            byVariables.set(key, error);
          }
          if (error)
            throw new GraphQLError(error.message, {
              extensions: { ...error.extensions, http: { status: 400, headers: new HeaderMap() } },
            });
        },
      };
    },
  };
}

/** Prices kept per document (its variables' values): a client paging with every `first` does not grow it without end. */
const PRICES_PER_DOCUMENT = 64;

/** What of the variables the price reads (variableValues): each integer, and each list's length. */
function pricingKey(document: DocumentNode, variables: Record<string, unknown>): string {
  let key = '';
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const { variable } of definition.variableDefinitions ?? []) {
      const sent = variables[variable.name.value];
      if (typeof sent === 'number' && Number.isInteger(sent)) key += `${variable.name.value}=${sent};`;
      else if (Array.isArray(sent)) key += `${variable.name.value}[${sent.length}];`;
    }
  }
  return key;
}

function selectionCost(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  type: GraphQLNamedType,
  defaults: Defaults,
  visited: Set<string>,
): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      total += fieldCost(context, selection, type, defaults, visited);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const on = selection.typeCondition ? context.getSchema().getType(selection.typeCondition.name.value) : type;
      total += selectionCost(context, selection.selectionSet, on ?? type, defaults, visited);
    } else {
      const name = selection.name.value;
      const fragment = context.getFragment(name);
      if (!fragment || visited.has(name)) continue;
      const on = context.getSchema().getType(fragment.typeCondition.name.value) ?? type;
      total += selectionCost(context, fragment.selectionSet, on, defaults, new Set([...visited, name]));
    }
  }
  return total;
}

function fieldCost(
  context: ValidationContext,
  node: FieldNode,
  parent: GraphQLNamedType,
  defaults: Defaults,
  visited: Set<string>,
): number {
  if (node.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) return 1;
  const field = parent.getFields()[node.name.value];
  if (!field || !node.selectionSet) return 1;
  const child = getNamedType(field.type);
  if (!isCompositeType(child)) return 1;
  return 1 + multiplier(field, node, defaults) * selectionCost(context, node.selectionSet, child, defaults, visited);
}

/** How many elements the field may hold. */
function multiplier(field: GraphQLField<unknown, unknown>, node: FieldNode, defaults: Defaults): number {
  const declared = typeof field.extensions?.complexity === 'number' ? field.extensions.complexity : undefined;
  const first = field.args.find((a) => a.name === 'first');
  if (first) {
    const asked =
      intArgument(node, 'first', defaults) ?? (typeof first.defaultValue === 'number' ? first.defaultValue : MAX_PAGE);
    return Math.max(1, Math.min(asked, declared ?? asked));
  }
  const ids = node.arguments?.find((a) => a.name.value === 'ids');
  if (ids) {
    const value = ids.value.kind === Kind.VARIABLE ? defaults.get(ids.value.name.value) : ids.value;
    return value?.kind === Kind.LIST ? Math.max(1, value.values.length) : MAX_PAGE;
  }
  let type = field.type;
  if (isNonNullType(type)) type = type.ofType;
  return isListType(type) ? (declared ?? 1) : 1;
}

function intArgument(node: FieldNode, name: string, defaults: Defaults): number | undefined {
  const argument = node.arguments?.find((a) => a.name.value === name);
  if (!argument) return undefined;
  let value: ValueNode | undefined = argument.value;
  if (value.kind === Kind.VARIABLE)
    value = defaults.get(value.name.value) ?? ({ kind: Kind.INT, value: String(MAX_PAGE) } as ValueNode);
  return value.kind === Kind.INT ? Number(value.value) : undefined;
}
