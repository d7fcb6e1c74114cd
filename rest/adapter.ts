import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import express, { type Request } from 'express';
import { match } from 'path-to-regexp';
import {
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  type TypeNode,
} from 'graphql';
import { type BodyLimits, operationBodyLimit } from '../src/kernel/body-limit';
import type { Context } from '../src/kernel/context';
import {
  type ErrorBody,
  type ErrorCode,
  errorStatus,
  type FieldError,
  internalErrorBody,
  isErrorCode,
  validationFailed,
} from '../src/kernel/errors';
import { MAX_PAGE_SIZE } from '../src/kernel/pagination';
import { jsonOnly } from '../src/kernel/json-body';
import type { AnswerOfField, BodyMapping, RestRoute } from '../src/kernel/rest-route';
import { restDetail } from '../src/kernel/rest-details';
import { sendJson } from '../src/kernel/json-answer';
import type { DirectRoute } from '../src/kernel/area';
import { DeclaringRouter } from '../src/kernel/http-router';
import { enumSpelling } from './enums';

/** The GraphQL variables of the REST list parameters. */
const queryAliases: Record<string, string> = { limit: 'first', cursor: 'after' };

interface PreparedRoute extends RestRoute {
  /** The operation parsed, once. */
  document: DocumentNode;
  /** Each variable of the operation with its named type (`Int`, `SignupInput`, ...). */
  variableTypes: Map<string, string>;
}

/** A row of the table as served: its path's matcher, its body's limit, its handler. */
export interface RestEndpoint extends DirectRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  match(path: string): { params: Record<string, string> } | false;
}

/**
 * Every route of the table, executing its operation through Apollo. Each row's operation is parsed
 * once here. That every row validates against the schema is test/architecture/operations.test.ts's
 * to say: validating them all again at each start cost every start (and every test file) a second.
 */
export function restEndpoints(
  apollo: ApolloServer<Context>,
  routes: RestRoute[],
  bodyLimit: number,
  bodyLimits: BodyLimits,
  schema: GraphQLSchema,
): RestEndpoint[] {
  return routes.map(prepare).map((route) => {
    const enums = enumSpelling(schema, route.document);
    return {
      method: route.method.toUpperCase() as RestEndpoint['method'],
      path: route.path,
      // As express's router matches: any case, a trailing slash or not, parameters decoded.
      match: match(route.path, { sensitive: false, end: true, trailing: true, decode: decodeURIComponent }),
      // A GET's body means nothing (RFC 9110) and is not read; each other row's body limit is its
      // operation's: BODY_LIMIT unless the mutation declares more.
      readBody:
        route.method === 'get'
          ? []
          : [jsonOnly, express.json({ limit: operationBodyLimit(route.document, undefined, bodyLimits, bodyLimit) })],
      async handle(ctx, body, req, res) {
        const { query, params, headers } = req as Request;
        const variables = enums.toGraphQL(variablesOf(route, body, query, params, headers));
        const response = await apollo.executeOperation({ query: route.operation, variables }, { contextValue: ctx });
        if (response.body.kind !== 'single') throw new Error('REST operations must not stream');
        const { data, errors } = response.body.singleResult;
        if (errors?.length) return sendError(res, errorBodyOf(errors[0], variables));
        if (route.status === 204) return void res.writeHead(204).end();
        const value: unknown = Object.values(enums.toRest(data) as object)[0];
        if (route.answers) return answerByField(res, route.answers, value as Record<string, unknown>);
        sendJson(res, route.status, shapeBody(route.body, value));
      },
    };
  });
}

/** The table on express, for the requests not served before it (paths spelled otherwise, those an area's own route sees first). */
export function restRouter(endpoints: RestEndpoint[], context: (req: Request) => Context): DeclaringRouter {
  const router = new DeclaringRouter();
  for (const endpoint of endpoints) {
    const method = endpoint.method.toLowerCase() as Lowercase<RestEndpoint['method']>;
    router[method](endpoint.path, ...endpoint.readBody!, (req, res, next) =>
      endpoint.handle(context(req), req.body, req, res).catch(next),
    );
  }
  return router;
}

/** The first of a row's answers whose field the value has, else its last. */
function answerByField(res: ServerResponse, answers: AnswerOfField[], value: Record<string, unknown>): void {
  const answer = answers.find(({ field }) => value[field] !== null && value[field] !== undefined) ?? answers.at(-1)!;
  const field = value[answer.field] ?? null;
  sendJson(res, answer.status, answer.wrapped ? { [answer.field]: field } : field);
}

interface Connection {
  edges: { node: unknown }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export function shapeBody(mapping: BodyMapping | undefined, value: unknown): unknown {
  if (mapping === 'accepted') return { accepted: true };
  if (mapping === 'list') {
    const { edges, pageInfo } = value as Connection;
    return { items: edges.map((edge) => edge.node), nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null };
  }
  return mapping ? { [mapping.wrap]: value } : value;
}

export function prepare(route: RestRoute): PreparedRoute {
  const document = parse(route.operation);
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`${route.method} ${route.path}: no operation`);
  const variableTypes = new Map(operation.variableDefinitions?.map((v) => [v.variable.name.value, namedType(v.type)]));
  return { ...route, document, variableTypes };
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

function variablesOf(
  route: PreparedRoute,
  body: unknown,
  query: Record<string, unknown>,
  params: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  if (route.variableTypes.has('input')) {
    variables.input = body;
  } else if (body && typeof body === 'object' && !Array.isArray(body)) {
    Object.assign(variables, pick(route, body as Record<string, unknown>));
  }
  for (const [name, value] of Object.entries(query)) {
    const variable = Object.hasOwn(queryAliases, name) ? queryAliases[name] : name;
    const type = route.variableTypes.get(variable);
    if (type && typeof value === 'string') variables[variable] = fromQueryString(value, type);
  }
  Object.assign(variables, pick(route, params));
  for (const [variable, { name }] of Object.entries(route.headers ?? {})) {
    const value = headers[name.toLowerCase()];
    if (typeof value === 'string') variables[variable] = value;
    else delete variables[variable];
  }
  return variables;
}

function pick(route: PreparedRoute, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => route.variableTypes.has(name)));
}

/** Query strings are text; numbers and booleans are converted so the schema can check them. */
function fromQueryString(value: string, type: string): unknown {
  if (type === 'Int' && /^-?\d+$/.test(value)) return Number(value);
  if (type === 'Boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

export function errorBodyOf(error: GraphQLFormattedError, variables: Record<string, unknown> = {}): ErrorBody {
  const extensions = error.extensions ?? {};
  const code = String(extensions.code ?? '').toLowerCase();
  if (!isErrorCode(code)) return internalErrorBody;
  // A page larger than PageArgs allows is priced (server/query-cost.ts) before its arguments are
  // checked, and refused as a query too expensive: over REST, it is the `limit` that is too large.
  if (code === 'validation_failed' && typeof variables.first === 'number' && variables.first > MAX_PAGE_SIZE) {
    return validationFailed([{ field: 'limit', message: `must not be greater than ${MAX_PAGE_SIZE}` }]).toBody();
  }
  const body: ErrorBody = { error: code as ErrorCode, message: error.message };
  if (typeof extensions.reason === 'string') body.reason = extensions.reason;
  if (typeof extensions.retryAfter === 'number') body.retryAfter = extensions.retryAfter;
  if (Array.isArray(extensions.details)) body.details = (extensions.details as FieldError[]).map(restDetail);
  return body;
}

export function sendError(res: ServerResponse, body: ErrorBody): void {
  if (body.retryAfter !== undefined) res.setHeader('Retry-After', body.retryAfter);
  if (body.error === 'unauthenticated') challenge(res);
  sendJson(res, errorStatus[body.error], body);
}

/**
 * The `WWW-Authenticate` of a 401 (docs/errors.md, RFC 6750): the scheme to use, and
 * `error="invalid_token"` when the request sent a token and it was refused (malformed, expired,
 * its session ended), not when it sent none or the refusal was of a password or a refresh token.
 */
export function challenge(res: ServerResponse): void {
  const auth = (res.req as { auth?: { error?: unknown } } | undefined)?.auth;
  res.setHeader('WWW-Authenticate', auth?.error ? 'Bearer error="invalid_token"' : 'Bearer');
}
