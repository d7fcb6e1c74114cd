import { createPubSub } from '@graphql-yoga/subscription';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLEnumType, GraphQLObjectType, type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { resolvers } from './platform';

/** The schema before permissions; the shield middleware is applied by the server. */
export async function buildAppSchema(pubSub: PubSub = createPubSub()): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    pubSub,
    validate: { forbidUnknownValues: false },
  });
  return withConventions(schema);
}

/** type-graphql makes the root types itself, with no way to describe them. */
const rootDescriptions: Record<string, string> = {
  Query: 'What callers read',
  Mutation: 'What callers change',
  Subscription: 'What callers follow live over WebSocket (graphql-transport-ws)',
};

/**
 * GraphQL names enum values in ALL_CAPS (`CONTENT_ADMIN`); the code, the database and REST keep the
 * specification's strings (`content_admin`). type-graphql names each value by its TypeScript key,
 * so the names are changed here and the values (what resolvers read and return) stay. The root
 * types get their descriptions.
 */
function withConventions(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.ROOT_OBJECT]: (type) =>
      new GraphQLObjectType({ ...type.toConfig(), description: rootDescriptions[type.name] }),
    [MapperKind.ENUM_TYPE]: (type) => {
      const config = type.toConfig();
      const values = Object.fromEntries(
        Object.entries(config.values).map(([name, value]) => [constantCase(name), value]),
      );
      return new GraphQLEnumType({ ...config, values });
    },
  });
}

/** `content_admin` and `contentAdmin` as `CONTENT_ADMIN`. */
function constantCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
