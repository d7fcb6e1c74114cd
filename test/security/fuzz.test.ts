import { type ErrorCode, errorStatus } from '../../src/kernel/errors';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  type GraphQLInputType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/server/platform';
import type { RestRoute } from '../../src/kernel/rest-route';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { sample } from '../support/samples';
import { type SignedIn, signInAdmin } from '../support/users';

/**
 * Every REST body, query parameter and path of the route table, and the GraphQL
 * operation behind it, gets NUL bytes, lone surrogates, very long strings, wrong JSON types, nulls,
 * arrays for objects and __proto__/constructor keys, and null for each variable (null
 * where the schema has a default means the default). Nothing may answer 5xx or INTERNAL_ERROR;
 * text that is not text must answer 4xx; a validation_failed answer names each field with a string.
 */
const schema = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));

let t: TestApp;
let smtp: SmtpServer;
let backend: AiBackendFake;
let admin: SignedIn;
beforeAll(async () => {
  smtp = await startSmtpServer();
  backend = await startAiBackend();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    AI_BACKEND_URL: backend.url,
    AI_BACKEND_SECRET: 'a-secret-for-the-ai-backend-of-the-fuzz-test',
  });
  admin = await signInAdmin(t);
  await t.http.post(`/admin/users/${admin.id}/roles`, { role: 'content_admin' }, { token: admin.accessToken });
});
afterAll(async () => {
  await t?.close();
  await backend?.close();
  await smtp?.close();
});

const NUL = 'bad\u0000text';
const LONE_HIGH = 'bad\ud800text';
const LONE_LOW = '\udc00bad';
const LONG = 'x'.repeat(20_000);

/** The wrong values given to one field, and whether the request must then be refused. */
const fieldValues: { label: string; value: unknown; mustRefuse: boolean }[] = [
  { label: 'NUL', value: NUL, mustRefuse: true },
  { label: 'lone high surrogate', value: LONE_HIGH, mustRefuse: true },
  { label: 'lone low surrogate', value: LONE_LOW, mustRefuse: true },
  { label: 'long string', value: LONG, mustRefuse: false },
  { label: 'number', value: 12345, mustRefuse: false },
  { label: 'boolean', value: false, mustRefuse: false },
  { label: 'null', value: null, mustRefuse: false },
  { label: 'array', value: [1, 'two', null], mustRefuse: false },
  { label: 'object', value: { nested: { deeper: 'x' } }, mustRefuse: false },
  { label: '__proto__ object', value: JSON.parse('{"__proto__": {"polluted": true}}'), mustRefuse: false },
  { label: 'NUL key', value: { ['k\u0000']: 1 }, mustRefuse: false },
];

/** Whole bodies that are not the object a route expects. */
const rawBodies = [
  'null',
  '[]',
  '[{}]',
  '"text"',
  '12',
  'true',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"__proto__": 1, "constructor": 2}',
  '{"input": "\\u0000"}',
];

const queryValues = ['%00', 'a%00b', '%ED%A0%80', '%F0%9F', LONG.slice(0, 4000), '', '-1', '1e309'];
const pathValues = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  'x'.repeat(3000),
  '__proto__',
  'constructor',
  '..%2F..%2Fetc',
  '00000000-0000-0000-0000-000000000000',
  '%20',
];

/** encodeURIComponent, except that a lone surrogate becomes the three bytes a careless encoder sends (%ED%A0%80). */
function encode(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    out +=
      ch.length === 1 && c >= 0xd800 && c <= 0xdfff
        ? [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(ch);
  }
  return out;
}

/** Every leaf of a sample value as a path of keys (at most `limit`). */
function leaves(value: unknown, path: string[] = [], out: string[][] = [], limit = 80): string[][] {
  if (out.length >= limit) return out;
  if (Array.isArray(value)) value.forEach((item, i) => leaves(item, [...path, String(i)], out, limit));
  else if (value && typeof value === 'object' && Object.keys(value).length) {
    if (path.length) out.push(path);
    for (const [key, inner] of Object.entries(value)) leaves(inner, [...path, key], out, limit);
  } else out.push(path);
  return out;
}

function withValue(base: unknown, path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const copy = structuredClone(base) as Record<string, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

interface Case {
  /** A GraphQL field that no REST row serves: sent over GraphQL only. */
  graphqlOnly?: boolean;
  route: RestRoute;
  label: string;
  mustRefuse: boolean;
  method: string;
  path: string;
  raw?: string;
  /** The same values sent to the route's operation over GraphQL, when they can be. */
  variables?: Record<string, unknown>;
}

function casesOf(route: RestRoute): Case[] {
  const operation = parse(route.operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const variables = (operation.variableDefinitions ?? []).map((v) => ({
    name: v.variable.name.value,
    type: typeFromAST(schema, v.type as never) as GraphQLInputType,
  }));
  const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const base: Record<string, unknown> = Object.fromEntries(variables.map((v) => [v.name, sample(v.type, v.name)]));
  const bodyVariables = route.method === 'get' ? [] : variables.filter((v) => !pathNames.includes(v.name));
  const queryVariables = route.method === 'get' ? variables.filter((v) => !pathNames.includes(v.name)) : [];
  const restName = (name: string) => ({ first: 'limit', after: 'cursor' })[name] ?? name;

  const pathOf = (vars: Record<string, unknown>, override?: [string, string]) =>
    route.path.replace(/:(\w+)/g, (_, name: string) =>
      override?.[0] === name ? override[1] : encode(String(vars[name])),
    );
  const bodyOf = (vars: Record<string, unknown>): unknown =>
    bodyVariables.length === 1 && bodyVariables[0].name === 'input'
      ? vars.input
      : Object.fromEntries(bodyVariables.map((v) => [v.name, vars[v.name]]));
  const queryOf = (vars: Record<string, unknown>) =>
    queryVariables
      .filter((v) => vars[v.name] !== undefined && vars[v.name] !== null)
      .map(
        (v) =>
          `${restName(v.name)}=${encode(typeof vars[v.name] === 'object' ? JSON.stringify(vars[v.name]) : String(vars[v.name]))}`,
      )
      .join('&');

  const cases: Case[] = [];
  const push = (label: string, mustRefuse: boolean, vars: Record<string, unknown>, extra: Partial<Case> = {}) => {
    const query = route.method === 'get' ? queryOf(vars) : '';
    cases.push({
      route,
      label,
      mustRefuse,
      method: route.method.toUpperCase(),
      path: pathOf(vars) + (query ? `?${query}` : ''),
      raw: route.method === 'get' ? undefined : JSON.stringify(bodyOf(vars)),
      variables: vars,
      ...extra,
    });
  };

  // Bodies: each leaf of each body variable, then whole bodies of the wrong shape.
  for (const v of bodyVariables) {
    for (const leaf of leaves(base[v.name])) {
      for (const { label, value, mustRefuse } of fieldValues) {
        push(`body ${[v.name, ...leaf].join('.')} = ${label}`, mustRefuse, {
          ...base,
          [v.name]: withValue(base[v.name], leaf, value),
        });
      }
    }
  }
  if (route.method !== 'get') {
    for (const raw of rawBodies)
      cases.push({
        route,
        label: `body ${raw.slice(0, 30)}`,
        mustRefuse: false,
        method: route.method.toUpperCase(),
        path: pathOf(base),
        raw,
      });
  }
  // Query parameters, as a client may write them (REST only).
  for (const v of queryVariables) {
    const others = queryOf(Object.fromEntries(Object.entries(base).filter(([name]) => name !== v.name)));
    for (const value of queryValues) {
      const mustRefuse = value.includes('%00');
      cases.push({
        route,
        label: `query ${v.name}=${value.slice(0, 20)}`,
        mustRefuse,
        method: 'GET',
        path: `${pathOf(base)}?${[others, `${restName(v.name)}=${value}`].filter(Boolean).join('&')}`,
      });
    }
    cases.push({
      route,
      label: `query ${v.name} twice`,
      mustRefuse: false,
      method: 'GET',
      path: `${pathOf(base)}?${restName(v.name)}=a&${restName(v.name)}=b`,
    });
    cases.push({
      route,
      label: `query ${v.name}[k]`,
      mustRefuse: false,
      method: 'GET',
      path: `${pathOf(base)}?${restName(v.name)}[k]=a`,
    });
    for (const { label, value, mustRefuse } of fieldValues.filter((f) => f.mustRefuse))
      push(`variable ${v.name} = ${label}`, mustRefuse, { ...base, [v.name]: value });
  }
  if (route.method === 'get') {
    cases.push({
      route,
      label: 'query __proto__',
      mustRefuse: false,
      method: 'GET',
      path: `${pathOf(base)}?__proto__=1&constructor=2&__proto__[x]=1`,
    });
  }
  // Null for each variable, where a default may stand behind it (`first: Int! = 20`): never an internal error.
  for (const v of variables) push(`variable ${v.name} = null`, false, { ...base, [v.name]: null });
  // Path parameters.
  for (const name of pathNames) {
    for (const value of pathValues) {
      cases.push({
        route,
        label: `path ${name}=${value.slice(0, 20)}`,
        mustRefuse: value.includes('%00'),
        method: route.method.toUpperCase(),
        path: pathOf(base, [name, value]),
        raw: route.method === 'get' ? undefined : JSON.stringify(bodyOf(base)),
      });
    }
    for (const { label, value, mustRefuse } of fieldValues.filter((f) => f.mustRefuse))
      push(`variable ${name} = ${label}`, mustRefuse, { ...base, [name]: value });
  }
  return cases;
}

interface Outcome {
  kase: Case;
  via: 'rest' | 'graphql';
  status: number;
  body: unknown;
}

async function send(kase: Case): Promise<Outcome[]> {
  const token = admin.accessToken;
  const outcomes: Outcome[] = [];
  if (!kase.graphqlOnly) {
    const rest = await t.http.rest(kase.method, kase.path, { token, raw: kase.raw });
    outcomes.push({ kase, via: 'rest', status: rest.status, body: rest.body });
  }
  if (kase.variables) {
    const gql: Reply = await t.http.rest('POST', '/graphql', {
      token,
      body: { query: kase.route.operation, variables: kase.variables },
    });
    const code = gql.body?.errors?.[0]?.extensions?.code as string | undefined;
    // A GraphQL answer's status is 200 for errors met while executing: its code says what it was.
    outcomes.push({
      kase,
      via: 'graphql',
      status: code && gql.status === 200 ? statusOf(code) : gql.status,
      body: gql.body,
    });
  }
  return outcomes;
}

/** The status REST gives a GraphQL error code, from the contract's own table. */
const statusOf = (code: string) => errorStatus[code.toLowerCase() as ErrorCode] ?? 500;

function fieldsOf(outcome: Outcome): unknown[] {
  const body = outcome.body as {
    details?: { field: unknown }[];
    errors?: { extensions?: { details?: { field: unknown }[] } }[];
  };
  const details = outcome.via === 'rest' ? body?.details : body?.errors?.[0]?.extensions?.details;
  return (details ?? []).map((d) => d.field);
}

/**
 * Query and Mutation fields with arguments that no REST row's operation calls: an operation of
 * their own, so that every GraphQL input is fuzzed too (sent over GraphQL only).
 */
function graphqlOnlyRoutes(): RestRoute[] {
  const served = new Set(
    routes.flatMap((route) =>
      parse(route.operation)
        .definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
        .flatMap((d) =>
          d.selectionSet.selections.map(
            (sel) =>
              `${d.operation === 'query' ? 'Query' : 'Mutation'}.${sel.kind === Kind.FIELD ? sel.name.value : ''}`,
          ),
        ),
    ),
  );
  const out: RestRoute[] = [];
  for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
    for (const field of Object.values(root.getFields())) {
      if (!field.args.length || served.has(`${root.name}.${field.name}`)) continue;
      const named = getNamedType(field.type);
      const selection = isObjectType(named) || isInterfaceType(named) || isUnionType(named) ? ' { __typename }' : '';
      const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
      const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
      const operation = `${root.name === 'Query' ? 'query' : 'mutation'} Fuzz_${field.name}(${definitions}) { ${field.name}(${args})${selection} }`;
      out.push({ method: 'post', path: `(graphql) ${root.name}.${field.name}`, operation, status: 200, summary: '' });
    }
  }
  return out;
}

/** Every variable of an operation as body cases (GraphQL only). */
function graphqlCasesOf(route: RestRoute): Case[] {
  return casesOf({ ...route, path: '/graphql-only' })
    .filter((kase) => kase.variables && kase.label.startsWith('body '))
    .map((kase) => ({ ...kase, route, graphqlOnly: true }));
}

describe('fuzzing the route table', () => {
  it(
    'answers 4xx, never 5xx, to malformed bodies, query parameters, paths and variables',
    { timeout: 600_000 },
    async () => {
      const onlyGraphql = graphqlOnlyRoutes();
      const cases = [...routes.flatMap(casesOf), ...onlyGraphql.flatMap(graphqlCasesOf)];
      const outcomes: Outcome[] = [];
      // A few at a time: the point is the answers, not the load.
      for (let i = 0; i < cases.length; i += 8)
        outcomes.push(...(await Promise.all(cases.slice(i, i + 8).map(send))).flat());

      const serverErrors = outcomes.filter((o) => o.status >= 500);
      const accepted = outcomes.filter((o) => o.kase.mustRefuse && o.status < 400);
      const badFields = outcomes.filter((o) => fieldsOf(o).some((f) => typeof f !== 'string'));
      const count = (from: number, to: number) => outcomes.filter((o) => o.status >= from && o.status < to).length;
      const counts = {
        routes: routes.length,
        graphqlOnlyFields: onlyGraphql.map((route) => route.path.replace('(graphql) ', '')),
        cases: cases.length,
        requests: outcomes.length,
        rest: outcomes.filter((o) => o.via === 'rest').length,
        graphql: outcomes.filter((o) => o.via === 'graphql').length,
        '2xx': count(200, 300),
        '4xx': count(400, 500),
        '5xx': count(500, 600),
      };
      // Recorded beside vitest's own report.
      mkdirSync(join(__dirname, '../../reports'), { recursive: true });
      writeFileSync(join(__dirname, '../../reports/fuzz.json'), `${JSON.stringify(counts, null, 2)}\n`);
      console.log(
        `fuzz: ${routes.length} routes + ${onlyGraphql.length} GraphQL-only fields, ${cases.length} cases, ${outcomes.length} requests (${outcomes.filter((o) => o.via === 'rest').length} REST, ${outcomes.filter((o) => o.via === 'graphql').length} GraphQL): ` +
          `2xx ${count(200, 300)}, 4xx ${count(400, 500)}, 5xx ${count(500, 600)}`,
      );
      const show = (list: Outcome[]) =>
        [...new Map(list.map((o) => [`${o.via} ${o.kase.route.path} ${o.kase.label.split(' = ')[0]}`, o])).values()]
          .slice(0, 60)
          .map(
            (o) =>
              `${o.via} ${o.kase.method} ${o.kase.route.path} [${o.kase.label}] -> ${o.status} ${JSON.stringify(o.body).slice(0, 160)}`,
          );
      expect(show(serverErrors)).toEqual([]);
      expect(show(accepted)).toEqual([]);
      expect(show(badFields)).toEqual([]);
    },
  );
});
