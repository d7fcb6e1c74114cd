import {
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type OperationDefinitionNode,
  TypeInfo,
  typeFromAST,
  ValidationContext,
} from 'graphql';

/*
 * `null` where the schema has a default means the default. graphql-js takes an explicit null for an
 * argument or input field of a non-null type with a default (`first: Int! = 20`) as a null, refuses
 * it while executing, and that refusal had no code of ours: INTERNAL_ERROR, and a logged error.
 * Clients that send every variable, null when unset, expect the default, as omitting it gives.
 */

/** Removes the nulls of `variables` that stand for a default: a variable used only where a default applies, an input field that has one. */
export function nullsAsDefaults(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): void {
  if (!variables || !operation.variableDefinitions?.length) return;
  let usages: ReturnType<ValidationContext['getRecursiveVariableUsages']> | undefined;
  for (const definition of operation.variableDefinitions) {
    const name = definition.variable.name.value;
    if (!Object.hasOwn(variables, name)) continue;
    const value = variables[name];
    if (value === null) {
      usages ??= new ValidationContext(
        schema,
        document,
        new TypeInfo(schema),
        () => undefined,
      ).getRecursiveVariableUsages(operation);
      const own = usages.filter((usage) => usage.node.name.value === name);
      if (
        own.length &&
        own.every((usage) => usage.type && isNonNullType(usage.type) && usage.defaultValue !== undefined)
      )
        delete variables[name];
      continue;
    }
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type) dropDefaultedNulls(type, value, 0);
  }
}

function dropDefaultedNulls(type: GraphQLInputType, value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object' || depth > 64) return;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    if (Array.isArray(value)) for (const item of value) dropDefaultedNulls(inner.ofType, item, depth + 1);
    return;
  }
  const named = getNamedType(inner);
  if (!isInputObjectType(named) || Array.isArray(value)) return;
  const object = value as Record<string, unknown>;
  for (const field of Object.values(named.getFields())) {
    if (!Object.hasOwn(object, field.name)) continue;
    if (object[field.name] === null && isNonNullType(field.type) && field.defaultValue !== undefined)
      delete object[field.name];
    else dropDefaultedNulls(field.type, object[field.name], depth + 1);
  }
}
