import {
  type FieldNode,
  getNamedType,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import { isPublicOperation, type RuleMap } from '../src/permissions';
import type { AnswerOfField, BodyMapping, RestRoute } from '../src/kernel/rest-route';
import { restNames } from '../src/kernel/rest-details';
import { API_LINKS, apiPackage } from '../src/kernel/api-links';
import {
  errorResponses,
  errorSchema,
  frontErrorResponses,
  headers,
  methodNotAllowedResponse,
  rateLimitHeaders,
} from './openapi-errors';
import { type JsonSchema, objectOf, orNull, ref, Shapes } from './openapi-shapes';

/** Operations that answer a stream when asked for one. */
const streams: Record<string, string> = {
  AiChat: 'Server-sent events (`Accept: text/event-stream`): the answer as it is written.',
};

/** The OpenAPI 3.1 description of the REST table, with shapes read from the GraphQL schema. */
export function buildOpenApi(schema: GraphQLSchema, routes: RestRoute[], rules: RuleMap): JsonSchema {
  const shapes = new Shapes();
  shapes.schemas.Error = errorSchema();
  const paths: Record<string, Record<string, JsonSchema>> = { '/': { get: indexOperation(shapes) } };
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [route.method]: operationOf(schema, route, rules, shapes) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Learning platform API (REST)',
      version: apiPackage().version,
      description:
        'REST compatibility layer: every path runs a GraphQL operation of /graphql with the same rules. Errors are `{ error, message }` with `reason` where the service tells errors of one code apart (each response lists its reasons), and `retryAfter` or `details` where they apply. A known path called with a method it does not take answers 405 `method_not_allowed` with `Allow` (`#/components/responses/MethodNotAllowed`). Answers are `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.',
    },
    servers: [{ url: '/', description: 'The host serving this document' }],
    paths,
    components: {
      schemas: referenced(shapes.schemas, paths),
      responses: { MethodNotAllowed: methodNotAllowedResponse() },
      headers,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}

/** `GET /`: where a client finds the rest of the API. */
function indexOperation(shapes: Shapes): JsonSchema {
  const links = Object.fromEntries(
    Object.entries(API_LINKS).map(([name, path]) => [name, { type: 'string', const: path }]),
  );
  shapes.schemas.ApiIndex = objectOf(
    { name: { type: 'string' }, version: { type: 'string' }, links: objectOf(links, Object.keys(links)) },
    ['name', 'version', 'links'],
  );
  return {
    operationId: 'ApiIndex',
    summary: 'The name and version of the service, and where its GraphQL endpoint, documentation and health probes are',
    tags: ['index'],
    security: [],
    responses: {
      200: {
        description: 'Success',
        headers: rateLimitHeaders(false),
        content: { 'application/json': { schema: ref('ApiIndex') } },
      },
      ...frontErrorResponses(),
    },
  };
}

/**
 * The schemas the paths use, by name: a connection's own (`CourseConnection`, `PageInfo`) are left
 * out, as the list body replaces them.
 */
function referenced(schemas: Record<string, JsonSchema>, paths: JsonSchema): Record<string, JsonSchema> {
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const target = (value as JsonSchema).$ref;
    if (typeof target === 'string' && target.startsWith('#/components/schemas/')) {
      const name = target.split('/').at(-1)!;
      if (used.has(name)) return;
      used.add(name);
      visit(schemas[name]);
    }
    Object.values(value).forEach(visit);
  };
  visit(paths);
  return Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => used.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

interface Variable {
  name: string;
  type: GraphQLInputType;
  required: boolean;
}

function operationOf(schema: GraphQLSchema, route: RestRoute, rules: RuleMap, shapes: Shapes): JsonSchema {
  const document = parse(route.operation);
  shapes.document = document;
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const id = operation.name!.value;
  const rootType = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const rootField = operation.selectionSet.selections[0] as FieldNode;
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const isPublic = isPublicOperation(
    rules,
    operation.operation === 'mutation' ? 'Mutation' : 'Query',
    rootField.name.value,
  );

  const variables: Variable[] = (operation.variableDefinitions ?? []).map((v) => ({
    name: v.variable.name.value,
    type: typeFromAST(schema, v.type as never) as GraphQLInputType,
    required: v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue,
  }));
  const inPath = (v: Variable) => pathParams.includes(v.name);
  const headerVariables = route.headers ?? {};
  const inHeader = (v: Variable) => Object.hasOwn(headerVariables, v.name);
  const parameters = [
    ...variables
      .filter((v) => inPath(v) || (route.method === 'get' && !inHeader(v)))
      .map((v) => ({
        name: restNames[v.name] ?? v.name,
        in: inPath(v) ? 'path' : 'query',
        required: inPath(v) || v.required,
        schema: shapes.nonNullInput(v.type),
      })),
    ...variables.filter(inHeader).map((v) => ({
      ...headerVariables[v.name],
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    })),
  ];
  const bodyVariables = route.method === 'get' ? [] : variables.filter((v) => !inPath(v) && !inHeader(v));
  const requestBody = bodyVariables.length
    ? { required: true, content: { 'application/json': { schema: bodySchema(id, bodyVariables, shapes) } } }
    : undefined;

  const value = shapes.output(rootType.getFields()[rootField.name.value].type, rootField.selectionSet, id);
  const success =
    route.status === 204
      ? { description: 'Done; no content', headers: rateLimitHeaders(false) }
      : successOf(id, shaped(id, route.body, value, shapes));
  const responses: Record<string, JsonSchema> = route.answers
    ? splitAnswers(id, route.answers, value, shapes)
    : { [route.status]: success };

  const field =
    [...bodyVariables, ...variables.filter((v) => !inHeader(v))].find((v) => v.required)?.name ??
    variables[0]?.name ??
    'id';
  const idField = variables.find((v) => !inPath(v) && namesAnId(v.type, new Set()))?.name;
  Object.assign(
    responses,
    errorResponses({
      id,
      isPublic,
      readsBody: route.method !== 'get',
      namesResource: pathParams.length > 0 || idField !== undefined,
      noun: pathParams.length ? nounOf(route.path) : (idField ?? 'resource').replace(/Ids?$/, ''),
      field: restNames[field] ?? field,
      area: route.area,
    }),
  );

  return {
    operationId: id,
    summary: route.summary,
    tags: [route.path.split('/')[1]],
    security: isPublic ? [] : [{ bearerAuth: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The body: the operation's `$input` type, or an object of its other variables named after it. */
function bodySchema(id: string, variables: Variable[], shapes: Shapes): JsonSchema {
  const input = variables.find((v) => v.name === 'input');
  if (input) return shapes.nonNullInput(input.type);
  const properties = Object.fromEntries(variables.map((v) => [v.name, shapes.input(v.type)]));
  return shapes.name(
    [`${id}Request`],
    objectOf(
      properties,
      variables.filter((v) => v.required).map((v) => v.name),
    ),
  );
}

function successOf(id: string, schema: JsonSchema): JsonSchema {
  const content: JsonSchema = { 'application/json': { schema } };
  if (streams[id]) content['text/event-stream'] = { schema: { type: 'string', description: streams[id] } };
  return { description: 'Success', headers: rateLimitHeaders(false), content };
}

/** The body as the adapter shapes it (rest/adapter.ts `shapeBody`), named. */
function shaped(id: string, mapping: BodyMapping | undefined, value: JsonSchema, shapes: Shapes): JsonSchema {
  if (mapping === 'accepted')
    return shapes.name(['Accepted'], objectOf({ accepted: { type: 'boolean', const: true } }, ['accepted']));
  if (mapping === 'list') {
    const connection = shapes.schemas[refName(value)];
    const edge =
      shapes.schemas[refName(((connection.properties as JsonSchema).edges as JsonSchema).items as JsonSchema)];
    const node = (edge.properties as JsonSchema).node as JsonSchema;
    const item = node.$ref ? refName(node) : id;
    return shapes.name(
      [`${item}Page`, `${id}Page`],
      objectOf({ items: { type: 'array', items: node }, nextCursor: orNull({ type: 'string' }) }, [
        'items',
        'nextCursor',
      ]),
    );
  }
  return mapping ? shapes.name([`${id}Response`], objectOf({ [mapping.wrap]: value }, [mapping.wrap])) : value;
}

function splitAnswers(
  id: string,
  answers: AnswerOfField[],
  value: JsonSchema,
  shapes: Shapes,
): Record<string, JsonSchema> {
  const properties = shapes.schemas[refName(value)].properties as Record<string, JsonSchema>;
  return Object.fromEntries(
    answers.map(({ status, field, wrapped }) => {
      const answer = { $ref: (properties[field].anyOf as JsonSchema[])[0].$ref };
      return [
        status,
        successOf(
          id,
          wrapped ? shapes.name([`${id}${status}Response`], objectOf({ [field]: answer }, [field])) : answer,
        ),
      ];
    }),
  );
}

/** The component a schema refers to, through its "or null". */
function refName(schema: JsonSchema): string {
  const target = (schema.anyOf as JsonSchema[] | undefined)?.[0] ?? schema;
  return String(target.$ref).split('/').at(-1)!;
}

/** Whether an input names something by its id (an `ID` anywhere in it), so that it may not be found. */
function namesAnId(type: GraphQLInputType, seen: Set<string>): boolean {
  const named = getNamedType(type);
  if (named.name === 'ID') return true;
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => namesAnId(f.type, seen));
}

/** `/courses/:id/lessons/:lessonId` is about a lesson: the last word before a parameter, singular. */
function nounOf(path: string): string {
  const words = path.split('/');
  const word = words[words.findLastIndex((w) => w.startsWith(':')) - 1] ?? 'resource';
  return word.replace(/sses$/, 'ss').replace(/s$/, '').replace(/-/g, ' ');
}
