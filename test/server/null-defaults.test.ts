import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  isInputObjectType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { sample } from '../support/samples';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { type SignedIn, signInAdmin } from '../support/users';

/**
 * `null` for an argument or input field that has a default (`first: Int! = 20`) means the
 * default, as leaving it out does; it answered INTERNAL_ERROR and logged an error. Every such
 * position of the schema is generated here, so that new ones are covered.
 */
const schema = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));

let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url });
  admin = await signInAdmin(t);
  await t.http.post(`/admin/users/${admin.id}/roles`, { role: 'content_admin' }, { token: admin.accessToken });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const hasDefault = (arg: { type: GraphQLInputType; defaultValue: unknown }) =>
  isNonNullType(arg.type) && arg.defaultValue !== undefined;
const callable = (field: GraphQLField<unknown, unknown>) =>
  field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined);
const selectionOf = (field: GraphQLField<unknown, unknown>) =>
  isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';

/** The shortest path of fields without required arguments from Query to each object type: `viewer { ...}`, `x { nodes { ... } }`. */
function pathsFromQuery(): Map<string, string[]> {
  const paths = new Map<string, string[]>([[schema.getQueryType()!.name, []]]);
  const queue: GraphQLObjectType[] = [schema.getQueryType()!];
  while (queue.length) {
    const type = queue.shift()!;
    for (const field of Object.values(type.getFields())) {
      const target = getNamedType(field.type);
      if (!isObjectType(target) || paths.has(target.name) || !callable(field)) continue;
      paths.set(target.name, [...paths.get(type.name)!, field.name]);
      queue.push(target);
    }
  }
  return paths;
}

/** Each argument with a default, as an operation that binds it to a nullable variable `$v`. */
function argumentPositions(): { position: string; query: string }[] {
  const paths = pathsFromQuery();
  const out: { position: string; query: string }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (
      !isObjectType(type) ||
      type.name.startsWith('__') ||
      type === schema.getMutationType() ||
      type === schema.getSubscriptionType()
    )
      continue;
    const path = paths.get(type.name);
    for (const field of Object.values(type.getFields())) {
      for (const arg of field.args.filter(hasDefault)) {
        const named = getNamedType(arg.type).name;
        const inner = `${field.name}(${arg.name}: $v)${selectionOf(field)}`;
        const body = (path ?? ['?']).reduceRight((acc, name) => `${name} { ${acc} }`, inner);
        out.push({
          position: `${type.name}.${field.name}(${arg.name})`,
          query: path ? `query Probe($v: ${named}) { ${body} }` : '',
        });
      }
    }
  }
  return out;
}

/** Each input field with a default, with a REST row whose `$input` has its type. */
function inputFieldPositions(): {
  position: string;
  type: GraphQLInputObjectType;
  field: string;
  route: (typeof routes)[number];
}[] {
  const out = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields()).filter(hasDefault)) {
      const route = routes.find((r) => {
        const operation = parse(r.operation).definitions.find(
          (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
        )!;
        const input = operation.variableDefinitions?.find((v) => v.variable.name.value === 'input');
        const inputType = input && getNamedType(typeFromAST(schema, input.type as never) as GraphQLInputType);
        // The type itself, or the type of a list of it inside (ExerciseTestInput in ExerciseInput.tests).
        return (
          inputType &&
          isInputObjectType(inputType) &&
          (inputType === type || Object.values(inputType.getFields()).some((f) => getNamedType(f.type) === type))
        );
      });
      out.push({ position: `${type.name}.${field.name}`, type, field: field.name, route: route! });
    }
  }
  return out;
}

describe('null where the schema has a default', () => {
  it('answers every argument with a default given null as if it were left out, never INTERNAL_ERROR', async () => {
    const positions = argumentPositions();
    expect(positions.length).toBeGreaterThanOrEqual(35);
    const unreachable = positions.filter((p) => !p.query).map((p) => p.position);
    expect(unreachable).toEqual([]);
    const differing: string[] = [];
    for (const { position, query } of positions) {
      const given = await t.http.gql(query, { v: null }, admin.accessToken);
      const omitted = await t.http.gql(query, {}, admin.accessToken);
      const codes = (reply: typeof given) => (reply.body.errors ?? []).map((e) => e.extensions.code);
      if (
        codes(given).includes('INTERNAL_ERROR') ||
        given.status !== omitted.status ||
        JSON.stringify(codes(given)) !== JSON.stringify(codes(omitted)) ||
        JSON.stringify(given.body.data) !== JSON.stringify(omitted.body.data)
      ) {
        differing.push(`${position}: ${given.status} ${JSON.stringify(given.body).slice(0, 200)}`);
      }
    }
    expect(differing).toEqual([]);
  });

  it('the probe’s repro: courses(first: $f) with f null lists the first page', async () => {
    const reply = await t.http.gql('query($f: Int) { courses(first: $f) { nodes { id } } }', { f: null });
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toBeUndefined();
    expect(Array.isArray(reply.body.data.courses.nodes)).toBe(true);
  });

  it('takes null for an input field with a default as the default, on REST and GraphQL alike', async () => {
    const positions = inputFieldPositions();
    expect(positions.length).toBeGreaterThanOrEqual(10);
    const differing: string[] = [];
    for (const { position, type, field, route } of positions) {
      expect(route, `a REST row takes ${type.name}`).toBeDefined();
      const operation = parse(route.operation).definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      )!;
      const inputType = typeFromAST(
        schema,
        operation.variableDefinitions!.find((v) => v.variable.name.value === 'input')!.type as never,
      ) as GraphQLInputType;
      const base = sample(inputType, 'input') as Record<string, unknown>;
      // The field set to null where it sits (in the input, or in each item of its list of `type`), and left out.
      const variant = (change: (item: Record<string, unknown>) => void) => {
        const copy = structuredClone(base);
        const holder =
          getNamedType(inputType) === type
            ? [copy]
            : Object.values(copy).find((v) => Array.isArray(v) && v.length && typeof v[0] === 'object');
        for (const item of holder as Record<string, unknown>[]) change(item);
        return copy;
      };
      const withNull = variant((item) => (item[field] = null));
      const without = variant((item) => delete item[field]);
      const send = async (input: unknown) => {
        const rest = await t.http.rest(route.method.toUpperCase(), route.path, {
          token: admin.accessToken,
          body: input,
        });
        const gql = await t.http.gql(route.operation, { input }, admin.accessToken);
        return {
          status: rest.status,
          error: rest.body?.error,
          details: rest.body?.details,
          codes: (gql.body.errors ?? []).map((e) => e.extensions.code),
          gqlDetails: gql.body.errors?.[0]?.extensions.details,
        };
      };
      const [given, omitted] = [await send(withNull), await send(without)];
      // Samples are not always valid bodies: what matters is that null and leaving out answer alike, and no detail names the field.
      const named = JSON.stringify([given.details, given.gqlDetails]).includes(`"${field}`);
      if (
        named ||
        given.status >= 500 ||
        given.codes.includes('INTERNAL_ERROR') ||
        given.status !== omitted.status ||
        JSON.stringify(given.codes) !== JSON.stringify(omitted.codes)
      ) {
        differing.push(
          `${position} via ${route.method.toUpperCase()} ${route.path}: null ${JSON.stringify(given).slice(0, 200)}, left out ${JSON.stringify(omitted).slice(0, 120)}`,
        );
      }
    }
    expect(differing).toEqual([]);
  });

  it('stores the default for an input field sent as null: a project without description nor visibility', async () => {
    const project = await t.http.post(
      '/projects',
      {
        title: 'Nulls',
        language: 'python',
        description: null,
        visibility: null,
        files: [{ path: 'main.py', content: 'print(1)' }],
      },
      { token: admin.accessToken },
    );
    expect(project.status).toBe(201);
    expect(project.body).toMatchObject({ description: '', visibility: 'private' });
    const again = await t.http.get(`/projects/${project.body.id}`, { token: admin.accessToken });
    expect(again.body).toMatchObject({ description: '', visibility: 'private' });
  });
});
