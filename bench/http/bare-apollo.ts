import { createServer, type Server } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { Pool } from 'pg';
import type { Config } from '../../src/config';
import { authenticateHeader } from '../../src/kernel/tokens';
import { accountOfRow } from './account-row';

const typeDefs = `
  type User { id: ID! email: String! emailVerified: Boolean! displayName: String! roles: [String!]! birthDate: String country: String! locale: String! tier: String! status: String! createdAt: String! }
  type Query { me: User }
`;

/**
 * The floor under the GraphQL twin: Apollo Server alone on node's http, answering the same `query Me`
 * from the same statement as the express baseline, with the service's token check and nothing else of
 * ours (no rate limit, CORS, request id, permissions, unit of work, ORM, query limits). What it costs
 * over the express baseline is what Apollo and graphql-js cost; the service cannot go below it.
 */
export async function bareApollo(config: Config, pool: Pool): Promise<Server> {
  const apollo = new ApolloServer<{ userId?: string }>({
    typeDefs,
    resolvers: {
      Query: {
        me: async (_root: unknown, _args: unknown, ctx: { userId?: string }) => {
          const { rows } = await pool.query('select u0.* from users as u0 where u0.id = $1 limit 1', [ctx.userId]);
          return accountOfRow(rows[0]);
        },
      },
    },
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled()],
  });
  await apollo.start();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const answer = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: req.method!,
          headers,
          search: '',
          body: JSON.parse(Buffer.concat(chunks).toString()),
        },
        context: async () => ({ userId: authenticateHeader(config, req.headers.authorization).userId }),
      });
      for (const [name, value] of answer.headers) res.setHeader(name, value);
      res.statusCode = answer.status ?? 200;
      res.end(answer.body.kind === 'complete' ? answer.body.string : '');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  server.once('close', () => void apollo.stop());
  return server;
}
