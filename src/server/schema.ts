import { createPubSub } from '@graphql-yoga/subscription';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { resolvers } from './platform';

/** The schema before permissions; the shield middleware is applied by the server. */
export function buildAppSchema(pubSub: PubSub = createPubSub()): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    pubSub,
    validate: { forbidUnknownValues: false },
  });
}

export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
