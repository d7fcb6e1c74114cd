import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import {
  type DocumentNode,
  type ExecutionArgs,
  getArgumentValues,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  parse,
  specifiedRules,
  subscribe as graphqlSubscribe,
  validate,
} from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { authenticateHeader, type RequestAuth } from '../kernel/tokens';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import { AppError, forbidden } from '../kernel/errors';
import { enforce } from '../permissions/enforce';
import type { RuleMap } from '../permissions';
import { createContext } from './context';
import { badLiteral, badVariable } from './input-guard';
import { formatGraphQLError } from './graphql-errors';
import { queryCostRule } from './query-cost';
import { parseOptions, queryLimitRules } from './query-limits';

/**
 * GraphQL over WebSocket on /graphql: the token is checked once in `connection_init`
 * (`connectionParams.authorization`), each operation gets its own context and unit of work, and
 * the limits of HTTP apply here too.
 */
export function attachWebSocketServer(httpServer: Server, schema: GraphQLSchema, deps: Deps, ruleMap: RuleMap) {
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const rules = [...specifiedRules, ...queryLimitRules(deps.config)];
  const connections = new WeakMap<object, RequestAuth>();
  const contextOf = (ctx: { extra: { socket: object; request: { socket: { remoteAddress?: string } } } }): Context =>
    createContext(deps, {
      requestId: randomUUID(),
      ip: ctx.extra.request.socket.remoteAddress ?? 'unknown',
      auth: connections.get(ctx.extra.socket) ?? {},
      countedBuckets: new Set(),
    });
  const server = useServer(
    {
      schema,
      // Parsing and validating here lets a refused query (tokens, depth, aliases) answer with an
      // error message, where graphql-ws would otherwise close the socket as an internal error.
      onSubscribe: (_ctx, _id, payload) => {
        let document: DocumentNode;
        try {
          document = parse(payload.query, parseOptions(deps.config));
        } catch (error) {
          return [requestError(error as GraphQLError)];
        }
        const errors = validate(schema, document, [...rules, queryCostRule(deps.config.GRAPHQL_MAX_COST, payload.variables ?? {})]);
        if (errors.length) return errors.map(requestError);
        const bad = badVariable(payload.variables) ?? badLiteral(document);
        if (bad) return [new GraphQLError('The request is invalid.', { extensions: { code: 'VALIDATION_FAILED', details: [bad] } })];
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables };
      },
      onConnect: (ctx) => {
        const auth = authenticateHeader(deps.config, String(ctx.connectionParams?.authorization ?? ''));
        if (!auth.userId) return false;
        connections.set(ctx.extra.socket, auth);
        return true;
      },
      context: (ctx) => contextOf(ctx),
      // A refused subscription answers one result with the error, as a refused query does.
      subscribe: async (args) => {
        const refusal = await subscriptionRefusal(args, ruleMap);
        return refusal ? { errors: [refusal] } : graphqlSubscribe(args);
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((e) => formatGraphQLError(e.toJSON(), e, (err) => deps.log.error({ err }, 'subscription failed'))) } : undefined,
    },
    wsServer,
  );
  return {
    wsServer,
    /** Closes every socket and ends the subscriptions, for a graceful shutdown. */
    dispose: () => server.dispose(),
  };
}

/**
 * A subscription is checked when it opens by the rules of the same map that guards queries (graphql
 * middleware only wraps the resolver, which runs per event): each root field's rule with its
 * arguments; a field without a rule is refused.
 */
async function subscriptionRefusal(args: ExecutionArgs, ruleMap: RuleMap): Promise<GraphQLError | null> {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'subscription') return null;
  const fields = args.schema.getSubscriptionType()!.getFields();
  const ctx = args.contextValue as Context;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.name.value.startsWith('__')) continue;
    const rule = ruleMap.Subscription?.[selection.name.value] ?? ruleMap.Subscription?.['*'];
    try {
      if (!rule) throw forbidden();
      await enforce(rule, ctx, `Subscription.${selection.name.value}`, getArgumentValues(fields[selection.name.value], selection, args.variableValues ?? {}));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return new GraphQLError(error.message, { originalError: error, path: [selection.name.value] });
    }
  }
  return null;
}

function requestError(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: 'VALIDATION_FAILED' } });
}
