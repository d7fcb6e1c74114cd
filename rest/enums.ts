import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  typeFromAST,
} from 'graphql';

/**
 * REST speaks the specification's enum strings (`content_admin`), GraphQL its ALL_CAPS names
 * (`CONTENT_ADMIN`): a row's variables are named before the operation runs, and its answer is
 * spelled back. Which enums an answer holds where is read once per row from its operation.
 */
export interface EnumSpelling {
  /**
   * The request's values with each enum string as GraphQL names it. Any other string is left as it
   * is: GraphQL refuses it, or takes it when it is already a GraphQL name (`ACTIVE`), which costs a
   * REST client nothing and lets one body serve both (the twins of test/server/null-defaults).
   */
  toGraphQL(variables: Record<string, unknown>): Record<string, unknown>;
  /** The answer with each enum name as REST spells it (changed in place: it is the operation's own result). */
  toRest(data: unknown): unknown;
}

/** Where enums sit in an answer: by response key, an enum or the enums below an object. */
type EnumPaths = Map<string, GraphQLEnumType | EnumPaths>;

export function enumSpelling(schema: GraphQLSchema, document: DocumentNode): EnumSpelling {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const paths = root ? enumPaths(schema, root, operation.selectionSet, fragments) : new Map();
  const variableTypes = new Map(
    (operation.variableDefinitions ?? []).map((v) => [
      v.variable.name.value,
      typeFromAST(schema, v.type as never) as GraphQLInputType | undefined,
    ]),
  );
  return {
    toGraphQL(variables) {
      return Object.fromEntries(
        Object.entries(variables).map(([name, value]) => [name, named(variableTypes.get(name), value)]),
      );
    },
    toRest(data) {
      return spelled(data, paths);
    },
  };
}

function enumPaths(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
): EnumPaths {
  const paths: EnumPaths = new Map();
  const add = (key: string, found: GraphQLEnumType | EnumPaths) => {
    const known = paths.get(key);
    if (known instanceof Map && found instanceof Map) for (const [k, v] of found) known.set(k, v);
    else paths.set(key, found);
  };
  const parent = getNamedType(type);
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) continue;
      const named = getNamedType(field.type);
      const key = selection.alias?.value ?? selection.name.value;
      if (isEnumType(named)) add(key, named);
      else if (selection.selectionSet) {
        const below = enumPaths(schema, field.type, selection.selectionSet, fragments);
        if (below.size) add(key, below);
      }
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
    if (!fragment) continue;
    const on = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
    for (const [key, found] of enumPaths(schema, on as GraphQLOutputType, fragment.selectionSet, fragments))
      add(key, found);
  }
  return paths;
}

function spelled(value: unknown, paths: EnumPaths | GraphQLEnumType): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => spelled(item, paths));
  if (!(paths instanceof Map)) return typeof value === 'string' ? (paths.parseValue(value) as unknown) : value;
  const object = value as Record<string, unknown>;
  for (const [key, below] of paths) if (key in object) object[key] = spelled(object[key], below);
  return object;
}

function named(type: GraphQLInputType | undefined, value: unknown): unknown {
  if (type === undefined || value === null || value === undefined) return value;
  if (isNonNullType(type)) return named(type.ofType, value);
  if (isListType(type))
    return Array.isArray(value) ? value.map((item) => named(type.ofType, item)) : named(type.ofType, value);
  if (isEnumType(type))
    return typeof value === 'string' ? (type.getValues().find((v) => v.value === value)?.name ?? value) : value;
  if (isInputObjectType(type) && typeof value === 'object' && !Array.isArray(value)) {
    const fields = type.getFields();
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        Object.hasOwn(fields, key) ? named(fields[key].type, inner) : inner,
      ]),
    );
  }
  return value;
}
