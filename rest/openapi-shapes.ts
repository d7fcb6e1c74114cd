import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

const scalars: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object', additionalProperties: true },
};

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * OpenAPI 3.1 (JSON Schema 2020-12) spells "or null" one way for every shape: a type list for a
 * scalar (`['string', 'null']`, with `null` among an enum's values), `anyOf` with `null` for a
 * named schema, whose `$ref` cannot carry a type of its own.
 */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === 'string') return { anyOf: [schema, { type: 'null' }] };
  if (typeof schema.type === 'string')
    return {
      ...schema,
      type: [schema.type, 'null'],
      ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
    };
  return schema;
}

/**
 * The named schemas of `components.schemas`, so that generated clients have named types: input
 * objects and enums by their GraphQL names; an output object by the fragment it is selected with
 * (`CourseSummaryFields` is `CourseSummary`) or its type's name, and the operation's name before it
 * when another operation selects other fields of that type.
 */
export class Shapes {
  readonly schemas: Record<string, JsonSchema> = {};
  /** The operation's document, whose fragments its selections spread. */
  document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [] };

  /** A schema under `name`, or the name of an equal one already there; `fallbacks` when another shape has it. */
  name(candidates: string[], schema: JsonSchema): JsonSchema {
    const text = JSON.stringify(schema);
    for (const name of candidates) {
      if (!this.schemas[name]) {
        this.schemas[name] = schema;
        return ref(name);
      }
      if (JSON.stringify(this.schemas[name]) === text) return ref(name);
    }
    for (let n = 2; ; n++) {
      const name = `${candidates.at(-1)}${n}`;
      if (!this.schemas[name] || JSON.stringify(this.schemas[name]) === text) return this.name([name], schema);
    }
  }

  output(type: GraphQLOutputType, selection: SelectionSetNode | undefined, operation: string): JsonSchema {
    if (isNonNullType(type)) return this.nonNullOutput(type.ofType, selection, operation);
    return orNull(this.nonNullOutput(type, selection, operation));
  }

  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.nonNullInput(type.ofType);
    return orNull(this.nonNullInput(type));
  }

  /** An input type without its null: what a path or query parameter holds. */
  nonNullInput(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return this.nonNullInput(type.ofType);
    if (isListType(type)) return { type: 'array', items: this.input(type.ofType) };
    if (isScalarType(type) || isEnumType(type)) return this.leaf(type);
    const named = getNamedType(type);
    if (isInputObjectType(named) && !this.schemas[named.name]) {
      this.schemas[named.name] = {};
      const fields = Object.values(named.getFields());
      this.schemas[named.name] = objectOf(
        Object.fromEntries(
          fields.map((f) => [
            f.name,
            { ...this.input(f.type), ...(f.description ? { description: f.description } : {}) },
          ]),
        ),
        fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name),
      );
    }
    return ref(named.name);
  }

  private nonNullOutput(
    type: GraphQLOutputType,
    selection: SelectionSetNode | undefined,
    operation: string,
  ): JsonSchema {
    if (isNonNullType(type)) return this.nonNullOutput(type.ofType, selection, operation);
    if (isListType(type)) return { type: 'array', items: this.output(type.ofType, selection, operation) };
    if (isScalarType(type) || isEnumType(type)) return this.leaf(type);
    if ((isObjectType(type) || isInterfaceType(type)) && selection) {
      const fields = type.getFields();
      const properties: JsonSchema = {};
      for (const node of this.fieldsOf(selection)) {
        const field = fields[node.name.value];
        properties[node.alias?.value ?? node.name.value] = {
          ...this.output(field.type, node.selectionSet, operation),
          ...(field.description ? { description: field.description } : {}),
        };
      }
      const fragment =
        selection.selections.length === 1 && selection.selections[0].kind === Kind.FRAGMENT_SPREAD
          ? selection.selections[0].name.value
          : undefined;
      const names = fragment ? [fragment.replace(/Fields$/, '')] : [type.name];
      return this.name([...names, `${operation}${type.name}`], objectOf(properties, Object.keys(properties)));
    }
    return {};
  }

  /** A scalar inline; an enum named, as GraphQL names it. */
  private leaf(type: GraphQLNamedType): JsonSchema {
    if (isScalarType(type)) return { ...(scalars[type.name] ?? {}) };
    if (!isEnumType(type)) return {};
    // REST spells enum values as the specification does (`content_admin`), not by their GraphQL names (rest/enums.ts).
    return this.name([type.name], {
      type: 'string',
      enum: type.getValues().map((v) => String(v.value)),
      ...(type.description ? { description: type.description } : {}),
    });
  }

  /** The fields a selection set asks for, through the fragments it spreads (of the same document). */
  private fieldsOf(selection: SelectionSetNode): FieldNode[] {
    const fragments = new Map(
      this.document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const flatten = (node: SelectionNode): FieldNode[] => {
      if (node.kind === Kind.FIELD) return [node];
      const inner =
        node.kind === Kind.FRAGMENT_SPREAD ? fragments.get(node.name.value)!.selectionSet : node.selectionSet;
      return inner.selections.flatMap(flatten);
    };
    return selection.selections.flatMap(flatten);
  }
}

export function objectOf(properties: JsonSchema, required: string[]): JsonSchema {
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
