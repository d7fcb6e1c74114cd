import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionNode,
  type SelectionSetNode,
  typeFromAST,
} from 'graphql';
import { isPublicOperation, type RuleMap } from '../src/permissions';
import { errorStatus } from '../src/kernel/errors';
import { prepare, restNames } from './adapter';
import type { BodyMapping, RestRoute } from '../src/kernel/rest-route';

type JsonSchema = Record<string, unknown>;

const scalars: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
};

/** The OpenAPI 3.0 description of the REST table, with shapes read from the GraphQL schema. */
export function buildOpenApi(schema: GraphQLSchema, routes: RestRoute[], rules: RuleMap): JsonSchema {
  const components: Record<string, JsonSchema> = { Error: errorSchema() };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operationOf(schema, route, rules, components) };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Learning platform API (REST)',
      version: '0.1.0',
      description: 'REST compatibility layer: every path runs a GraphQL operation of /graphql with the same rules. Errors are `{ error, message }` with `retryAfter` or `details` where they apply.',
    },
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

function operationOf(schema: GraphQLSchema, route: RestRoute, rules: RuleMap, components: Record<string, JsonSchema>): JsonSchema {
  const prepared = prepare(route);
  const document = parse(route.operation);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fields = fieldsOf(document);
  const rootType = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const rootField = operation.selectionSet.selections[0] as FieldNode;
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const isPublic = isPublicOperation(rules, operation.operation === 'mutation' ? 'Mutation' : 'Query', rootField.name.value);

  const variables = (operation.variableDefinitions ?? []).map((v) => ({
    name: v.variable.name.value,
    type: typeFromAST(schema, v.type as never) as GraphQLInputType,
    required: v.type.kind === Kind.NON_NULL_TYPE,
  }));
  const parameters = variables
    .filter((v) => pathParams.includes(v.name) || (route.method === 'get' && v.name !== 'input'))
    .map((v) => ({
      name: restNames[v.name] ?? v.name,
      in: pathParams.includes(v.name) ? 'path' : 'query',
      required: pathParams.includes(v.name) || v.required,
      schema: inputSchema(v.type, components),
    }));
  const bodyVariables = variables.filter((v) => !pathParams.includes(v.name) && route.method !== 'get');
  const requestBody = bodyVariables.length
    ? {
        required: true,
        content: {
          'application/json': {
            schema: prepared.variableTypes.has('input')
              ? inputSchema(bodyVariables.find((v) => v.name === 'input')!.type, components)
              : objectOf(
                  Object.fromEntries(bodyVariables.map((v) => [v.name, inputSchema(v.type, components)])),
                  bodyVariables.filter((v) => v.required).map((v) => v.name),
                ),
          },
        },
      }
    : undefined;

  const field = rootType.getFields()[rootField.name.value];
  const value = outputSchema(field.type, rootField.selectionSet, fields);
  const success = route.status === 204 ? { description: 'Done; no content' } : { description: 'Success', content: { 'application/json': { schema: shaped(route.body, value) } } };

  const errors = ['validation_failed', 'rate_limited', 'internal_error'];
  if (!isPublic) errors.push('unauthenticated', 'forbidden');
  if (pathParams.length) errors.push('not_found');
  if (requestBody) errors.push('payload_too_large');
  const responses: Record<string, JsonSchema> = { [route.status]: success };
  for (const code of errors) {
    responses[errorStatus[code as keyof typeof errorStatus]] = { description: code, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }

  return {
    operationId: operation.name?.value,
    summary: route.summary,
    tags: [route.path.split('/')[1]],
    ...(isPublic ? {} : { security: [{ bearerAuth: [] }] }),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

function shaped(mapping: BodyMapping | undefined, value: JsonSchema): JsonSchema {
  if (mapping === 'accepted') return objectOf({ accepted: { type: 'boolean' } }, ['accepted']);
  if (mapping === 'list') {
    const node = (((value.properties as JsonSchema).edges as JsonSchema).items as JsonSchema).properties as JsonSchema;
    return objectOf({ items: { type: 'array', items: node.node }, nextCursor: { type: 'string', nullable: true } }, ['items', 'nextCursor']);
  }
  return mapping ? objectOf({ [mapping.wrap]: value }, [mapping.wrap]) : value;
}

type FieldsOf = (selection: SelectionSetNode) => FieldNode[];

/** The fields a selection set asks for, through the fragments it spreads (of the same document). */
function fieldsOf(document: DocumentNode): FieldsOf {
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const flatten = (node: SelectionNode): FieldNode[] => {
    if (node.kind === Kind.FIELD) return [node];
    const selectionSet = node.kind === Kind.FRAGMENT_SPREAD ? fragments.get(node.name.value)!.selectionSet : node.selectionSet;
    return selectionSet.selections.flatMap(flatten);
  };
  return (selection) => selection.selections.flatMap(flatten);
}

function outputSchema(type: GraphQLOutputType, selection: SelectionSetNode | undefined, fieldsIn: FieldsOf): JsonSchema {
  if (isNonNullType(type)) return withoutNull(outputSchema(type.ofType, selection, fieldsIn));
  if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, selection, fieldsIn), nullable: true };
  if (isEnumType(type)) return { type: 'string', enum: restEnumValues(type), nullable: true };
  if (isScalarType(type)) return { ...(scalars[type.name] ?? {}), nullable: true };
  if (isObjectType(type) && selection) {
    const fields = type.getFields();
    const properties: JsonSchema = {};
    for (const node of fieldsIn(selection)) {
      properties[node.alias?.value ?? node.name.value] = outputSchema(fields[node.name.value].type, node.selectionSet, fieldsIn);
    }
    return { ...objectOf(properties, Object.keys(properties)), nullable: true };
  }
  return {};
}

function inputSchema(type: GraphQLInputType, components: Record<string, JsonSchema>): JsonSchema {
  if (isNonNullType(type)) return inputSchema(type.ofType, components);
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType, components) };
  if (isEnumType(type)) return { type: 'string', enum: restEnumValues(type) };
  if (isScalarType(type)) return scalars[type.name] ?? {};
  const named = getNamedType(type);
  if (isInputObjectType(named) && !components[named.name]) {
    components[named.name] = {};
    const fields = Object.values(named.getFields());
    components[named.name] = objectOf(
      Object.fromEntries(fields.map((f) => [f.name, { ...inputSchema(f.type, components), ...(f.description ? { description: f.description } : {}) }])),
      fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
    );
  }
  return { $ref: `#/components/schemas/${named.name}` };
}

function objectOf(properties: JsonSchema, required: string[]): JsonSchema {
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function withoutNull({ nullable: _nullable, ...schema }: JsonSchema): JsonSchema {
  return schema;
}

function errorSchema(): JsonSchema {
  return objectOf(
    {
      error: { type: 'string', enum: Object.keys(errorStatus) },
      message: { type: 'string' },
      retryAfter: { type: 'integer', description: 'Seconds to wait (rate_limited, quota_exceeded)' },
      details: {
        type: 'array',
        description: 'Which fields are invalid (validation_failed)',
        items: objectOf({ field: { type: 'string' }, message: { type: 'string' } }, ['field', 'message']),
      },
    },
    ['error', 'message'],
  );
}

/** REST spells enum values as the specification does (`content_admin`), not by their GraphQL names (rest/enums.ts). */
function restEnumValues(type: GraphQLEnumType): string[] {
  return type.getValues().map((v) => String(v.value));
}
