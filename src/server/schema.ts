import { createPubSub } from '@graphql-yoga/subscription';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { type AuthChecker, buildSchema, type PubSub } from 'type-graphql';
import type { Context } from '../kernel/context';
import { resolvers } from './platform';

/** Guards subscriptions at subscribe time, where shield rules do not run: a signed-in caller, with one of the roles if named. */
const authChecker: AuthChecker<Context> = async ({ context }, roles) => {
  if (!context.auth.userId || context.auth.error) return false;
  if (!roles.length) return true;
  const viewer = await context.viewer();
  return Boolean(viewer?.roles.some((role) => roles.includes(role)));
};

/** The schema before permissions; the shield middleware is applied by the server. */
export function buildAppSchema(pubSub: PubSub = createPubSub()): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    pubSub,
    authChecker,
    validate: { forbidUnknownValues: false },
  });
}

export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
