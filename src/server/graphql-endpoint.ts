import type { IncomingMessage } from 'node:http';
import { type ApolloServer, HeaderMap } from '@apollo/server';
import express from 'express';
import { graphqlBodyLimit, largestBodyLimit, rememberBodySize, sizeInBytes } from '../kernel/body-limit';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { isJsonType, jsonOnly } from '../kernel/json-body';
import type { DirectRoute } from '../kernel/area';
import { methodNotAllowed } from '../kernel/http.errors';
import { answerGraphqlError } from './chain/errors';
import { splitUrl } from './steps';
import { bodyLimits } from './platform';

/**
 * `/graphql`: one handler for the POSTs served before express and every other spelling (GET, a
 * query string) that express routes here. What Apollo's express integration did, on node's own
 * response: Apollo's headers and status, its body whole or in parts.
 */
export function graphqlEndpoint(deps: Deps, apollo: ApolloServer<Context>): DirectRoute {
  // BODY_LIMIT for every operation but the mutations that declare more (a 256 KiB project): the
  // parser takes the largest, then the operation's own limit decides.
  const bodyLimit = sizeInBytes(deps.config.BODY_LIMIT);
  return {
    path: '/graphql',
    readBody: [
      jsonOnly,
      express.json({ limit: largestBodyLimit(bodyLimits, bodyLimit), verify: rememberBodySize }),
      graphqlBodyLimit(bodyLimits, bodyLimit),
    ],
    // Other requests go through express: a body of another type is refused there (415), a GET goes to Apollo.
    serves: (req) => isJsonType(req.headers['content-type']),
    answerError: answerGraphqlError,
    async handle(ctx, body, req, res) {
      // Apollo answers other methods 405 in its own words; the error object says it here (docs/errors.md).
      if (req.method !== 'GET' && req.method !== 'POST') {
        res.setHeader('Allow', 'GET, POST');
        throw methodNotAllowed();
      }
      const answer = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: req.method!.toUpperCase(),
          headers: headersOf(req),
          search: splitUrl(req.url ?? '').search,
          body,
        },
        context: async () => ctx,
      });
      for (const [name, value] of answer.headers) res.setHeader(name, value);
      res.statusCode = answer.status ?? 200;
      if (answer.body.kind === 'complete') {
        // Named: compression (which drops it when it compresses) writes the head before the body.
        res.setHeader('Content-Length', Buffer.byteLength(answer.body.string));
        return void res.end(answer.body.string);
      }
      for await (const chunk of answer.body.asyncIterator) res.write(chunk);
      res.end();
    },
  };
}

function headersOf(req: IncomingMessage): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
