import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import {
  createSourceEventStream,
  execute,
  type ExecutionArgs,
  type ExecutionResult,
  getArgumentValues,
  getOperationAST,
  GraphQLError,
  Kind,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { RequestAuth } from '../kernel/tokens';
import { ACCESS_CHANGED } from '../kernel/access';
import type { Context, Viewer } from '../kernel/context';
import { type Deps, homeOf } from '../kernel/deps';
import { AppError, databaseUnavailable, forbidden, unauthenticated } from '../kernel/errors';
import { CONNECTION_EVENT } from '../kernel/pubsub';
import { RateLimitedError } from '../kernel/rate-limit';
import { SESSIONS_ENDED, SESSIONS_ENDED_KEY, type SessionsEndedEvent, type SessionState } from '../kernel/sessions';
import { enforce } from '../permissions/enforce';
import type { RuleMap } from '../permissions';
import { createContext } from './context';
import { openUnit } from './platform';
import { connectionSessionEnded, connectionTokenExpired, subscriptionLimitReached } from './server.errors';
import { callerSteps, hasExpired, standingRefusal } from './chain/caller';
import { closeCodeOf } from './chain/errors';
import { countCaller } from './chain/limits';
import { eachEvent, type FormatError, formatResult, isAsyncIterable, runOnSocket } from './ws-operations';

/** One socket, signed in with one access token for its whole life. */
interface Connection {
  socket: WebSocket;
  auth: RequestAuth & { userId: string };
  ip: string;
  expiry?: NodeJS.Timeout;
  closing: boolean;
  /** Bumped whenever what the socket's decisions are made of may have changed: they are made again. */
  generation: number;
  /** The account and session as read for the current generation, shared by every event of the socket. */
  standing?: Standing;
  /** Ids of the subscriptions running (or being started) on the socket, for MAX_SUBSCRIPTIONS_PER_SOCKET. */
  subscriptions: Set<string>;
  /** Settles once the socket's last subscription sent listens (or was refused): later operations wait for it. */
  listening: Promise<void>;
}

/** What one read of an account tells every subscription of a socket, until an event says it changed. */
interface Standing {
  generation: number;
  at: number;
  state: Promise<SessionState>;
  viewer: Promise<Viewer | null>;
  failure?: unknown;
}

/** setTimeout's longest delay; a token living longer is caught by the check of each operation. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Sockets one account holds open at once on an instance: the next is closed with 4429. Counted per
 * instance: the shared store (kernel/rate-limit-stores) keeps windowed counters, not a gauge that a
 * crashed instance could leave counting sockets it no longer holds.
 */
export const MAX_SOCKETS_PER_ACCOUNT = 10;
export const TOO_MANY_SOCKETS = 4429;
/** Subscriptions one socket runs at once: the next answers LIMIT_REACHED (a limit of the specification, 409, not a window). */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 20;
/** How long a socket may stay open without `connection_init` before it is closed with 4408. */
const CONNECTION_INIT_WAIT_MS = 10_000;

/**
 * Closes a socket refused at `connection_init`, with the code its refusal says (closeCodeOf).
 * graphql-ws would close every refusal with 4403 (on `false`); a close made here comes first and is
 * the one sent.
 */
function refuse(socket: WebSocket, refusal: AppError): false {
  socket.close(closeCodeOf(refusal), refusal.message);
  return false;
}

/**
 * GraphQL over WebSocket on /graphql. The socket holds the rights of the token it opened with
 * (`connectionParams.authorization`), and no longer than that token stands: it closes with 4401
 * when the token expires or its session ends (logout, password reset, a refresh token used twice,
 * a deletion request, erasure) and with 4403 when the account is suspended or its erasure pending,
 * on every instance, as soon as the event bus says so; each operation checks the token again
 * before it runs and counts against the caller's rate limit as an HTTP request does, and runs
 * through the ApolloServer of HTTP (ws-operations.ts): its limits, plugins, schema hiding and error
 * formatting apply here too.
 *
 * Events of a subscription are checked before each delivery without a read per event: the socket's
 * session state and account, and each subscription's verdict of its rules, are read once and kept
 * until the event bus says they may have changed (`accessChanged` of the account or of everybody,
 * which the database sends for every change of an account's status or roles; `SESSIONS_ENDED` of
 * the account; the bus's own connection lost or back), or SUBSCRIPTION_DECISION_TTL_MS passes. The bus hands
 * those to this instance in commit order, before any event published after the change, so a
 * suspended account or an ended session gets no further event, here or on another instance.
 */
export function attachWebSocketServer(
  httpServer: Server,
  apollo: ApolloServer<Context>,
  deps: Deps,
  ruleMap: RuleMap,
  formatError: FormatError,
) {
  const { config, log } = deps;
  /**
   * How long a socket's standing and its subscriptions' verdicts are kept when no event says they
   * changed (a session revoked by hand in SQL sends none; a change of the account row always does).
   */
  const ttl = config.SUBSCRIPTION_DECISION_TTL_MS;
  // The links of the request chain a socket meets: the caller once at connection_init, and before
  // each operation the token's expiry, the default limit and the session's standing.
  const caller = callerSteps(deps);
  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' });
  const connections = new WeakMap<object, Connection>();
  const byUser = new Map<string, Set<Connection>>();
  /** The socket each subscription's context belongs to. */
  const owners = new WeakMap<object, Connection>();
  /** What a subscription's execution arguments settle once it listens (see Connection.listening). */
  const opening = new WeakMap<ExecutionArgs, () => void>();
  /** What Apollo answered to a query or mutation, for graphql-ws to send as its result. */
  const answers = new WeakMap<ExecutionArgs, ExecutionResult>();

  /** The socket's session state and account: kept while nothing announced a change, read once otherwise. */
  const standingOf = (connection: Connection): Standing => {
    const kept = connection.standing;
    if (kept && kept.generation === connection.generation && Date.now() - kept.at < ttl) return kept;
    const { services } = openUnit(homeOf(deps, connection.auth));
    const made: Standing = {
      generation: connection.generation,
      at: Date.now(),
      state: services.auth.sessionState(connection.auth.userId, connection.auth.sessionId),
      viewer: services.auth.findUser(connection.auth.userId),
    };
    // A failed read is not kept, and nothing is kept while events may be missed (the bus is down).
    const forget = (error: unknown) => {
      made.failure = error;
      if (connection.standing === made) connection.standing = undefined;
    };
    made.state.catch(forget);
    made.viewer.catch(forget);
    connection.standing = ttl > 0 && deps.pubSub.connected() ? made : undefined;
    return made;
  };
  const invalidate = (connection: Connection) => {
    connection.generation++;
    connection.standing = undefined;
  };
  const invalidateUser = (userId: string) => byUser.get(userId)?.forEach(invalidate);
  const invalidateAll = () => byUser.forEach((sockets) => sockets.forEach(invalidate));

  const plainContextOf = (connection: Connection): Context =>
    createContext(deps, {
      requestId: randomUUID(),
      ip: connection.ip,
      auth: connection.auth,
      // A socket has no headers to show its limits in.
      showLimit: () => undefined,
    });
  /** A subscription's context; its caller is the socket's standing account, so rules and resolvers read no account of their own. */
  const contextOf = (connection: Connection): Context => {
    const context = plainContextOf(connection);
    let used: Standing | undefined;
    context.viewer = () => (used = standingOf(connection)).viewer;
    context.caller = context.viewer;
    context.failure = () => used?.failure;
    return context;
  };

  const sessionState = (auth: RequestAuth & { userId: string }): Promise<SessionState> =>
    openUnit(homeOf(deps, auth)).services.auth.sessionState(auth.userId, auth.sessionId);

  /** Closes the socket with `code` after what is being sent now (an operation's error) has gone out. */
  const end = (connection: Connection, code: number, reason: string) => {
    if (connection.closing) return;
    connection.closing = true;
    clearTimeout(connection.expiry);
    setImmediate(() => connection.socket.close(code, reason));
  };
  const endFor = (connection: Connection, state: Exclude<SessionState, 'live'>) => {
    const refusal = standingRefusal(state);
    end(connection, closeCodeOf(refusal), refusal.message);
  };

  const register = (connection: Connection) => {
    let sockets = byUser.get(connection.auth.userId);
    if (!sockets) byUser.set(connection.auth.userId, (sockets = new Set()));
    sockets.add(connection);
    const { expiresAt } = connection.auth;
    if (expiresAt !== undefined) {
      connection.expiry = setTimeout(
        () => end(connection, CloseCode.Unauthorized, 'Token expired'),
        Math.min(Math.max(0, expiresAt - Date.now()), MAX_TIMER_MS),
      );
      connection.expiry.unref();
    }
  };
  const unregister = (connection: Connection) => {
    clearTimeout(connection.expiry);
    const sockets = byUser.get(connection.auth.userId);
    sockets?.delete(connection);
    if (sockets?.size === 0) byUser.delete(connection.auth.userId);
  };

  /**
   * Sessions of an account ended somewhere: its sockets here forget their standing at once (before
   * any later event is handled) and each checks its own token's session, with the read the next
   * event would make anyway.
   */
  const recheck = async (userId: string) => {
    for (const connection of [...(byUser.get(userId) ?? [])]) {
      const state = await standingOf(connection).state;
      if (state !== 'live') endFor(connection, state);
    }
  };
  // Listeners, not async iterators: they run as the event arrives, before the events after it.
  const stopListening = [
    deps.pubSub.listen(`${SESSIONS_ENDED}:${SESSIONS_ENDED_KEY}`, (detail) => {
      const { userId } = detail as SessionsEndedEvent;
      invalidateUser(userId);
      void recheck(userId).catch((error: unknown) => log.warn({ err: error }, 'live sessions not rechecked'));
    }),
    deps.pubSub.listen(ACCESS_CHANGED, (detail) => (detail === '*' ? invalidateAll() : invalidateUser(String(detail)))),
    // Events sent while the bus was down are lost: nothing kept from before is trusted.
    deps.pubSub.listen(CONNECTION_EVENT, invalidateAll),
  ];

  /**
   * Whether an event may reach a subscription: the socket still stands (its session live, its
   * account not suspended) and the subscription's rules still allow it, both as kept since the
   * last change announced. Allowed verdicts are kept; a refusal ends the subscription.
   */
  const eventRefusal = async (
    connection: Connection,
    verdict: { generation: number; at: number } | undefined,
    args: ExecutionArgs,
  ) => {
    if (connection.closing) return { refusal: connectionSessionEnded().toGraphQLError(), verdict };
    const state = await standingOf(connection).state;
    if (state !== 'live') {
      endFor(connection, state);
      return { refusal: standingRefusal(state).toGraphQLError(), verdict };
    }
    if (verdict && verdict.generation === connection.generation && Date.now() - verdict.at < ttl)
      return { refusal: null, verdict };
    const made = { generation: connection.generation, at: Date.now() };
    const refusal = await subscriptionRefusal(args, ruleMap);
    return { refusal, verdict: refusal || ttl === 0 || !deps.pubSub.connected() ? undefined : made };
  };

  /**
   * What an operation meets before it runs, in the order HTTP applies it: an expired token, the
   * rate limit (an operation is a request), a session that ended or an account suspended since.
   */
  const operationRefusal = async (connection: Connection): Promise<GraphQLError | null> => {
    try {
      if (connection.closing) return connectionSessionEnded().toGraphQLError();
      if (hasExpired(connection.auth)) {
        end(connection, CloseCode.Unauthorized, 'Token expired');
        return connectionTokenExpired().toGraphQLError();
      }
      await countCaller(deps.limits, { auth: connection.auth, ip: connection.ip, showLimit: () => undefined });
      const state = await sessionState(connection.auth);
      if (state === 'live') return null;
      endFor(connection, state);
      return standingRefusal(state).toGraphQLError();
    } catch (error) {
      if (error instanceof RateLimitedError) return error.toGraphQLError();
      if (isDatabaseUnavailable(error)) return databaseUnavailable().toGraphQLError();
      log.error({ err: error }, 'websocket operation check failed');
      return new GraphQLError('Something went wrong on our side. Try again later.', {
        extensions: { code: 'INTERNAL_ERROR' },
      });
    }
  };

  /** A subscription's stream of checked events, or the one result that refuses it. */
  const openSubscription = async (args: ExecutionArgs) => {
    const refusal = await subscriptionRefusal(args, ruleMap);
    if (refusal) return formatResult({ errors: [refusal] }, formatError);
    const connection = owners.get(args.contextValue as object)!;
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return formatResult(stream, formatError);
    // The operation's context serves each event (resolvers clear its entity manager); its
    // caller is the socket's standing account, so an event costs no read of the account.
    let verdict: { generation: number; at: number } | undefined;
    return eachEvent(stream, async (payload) => {
      const eventArgs = { ...args, rootValue: payload };
      try {
        const checked = await eventRefusal(connection, verdict, eventArgs);
        verdict = checked.verdict;
        if (checked.refusal) return { result: formatResult({ errors: [checked.refusal] }, formatError), last: true };
        return { result: formatResult(await execute(eventArgs), formatError), last: false };
      } catch (error) {
        // Formatted as upstream_unavailable or internal_error, nothing internal.
        const failed = new GraphQLError(String((error as Error)?.message), { originalError: error as Error });
        return { result: formatResult({ errors: [failed] }, formatError), last: true };
      }
    });
  };

  const server = useServer(
    {
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
      // Every operation goes through Apollo here, as an HTTP request does: a refused one (tokens,
      // depth, aliases, cost, bad input) answers with graphql-ws's error message; a query or
      // mutation has its result, which graphql-ws sends (execute); a subscription opens (subscribe).
      onSubscribe: async (ctx, id, payload) => {
        const connection = connections.get(ctx.extra.socket);
        if (!connection) return [unauthenticated().toGraphQLError()];
        // A client that subscribes and then acts expects the event of its act: an operation starts
        // only once the subscriptions sent before it on the socket listen.
        const earlier = connection.listening;
        let listens!: () => void;
        connection.listening = new Promise((resolve) => (listens = resolve));
        await earlier;
        let opens = false;
        try {
          const refusal = await operationRefusal(connection);
          if (refusal) return [refusal];
          // Queries and mutations read the caller afresh, as over HTTP.
          const answer = await runOnSocket(apollo, payload, plainContextOf(connection), listens);
          if ('refused' in answer) return answer.refused;
          if ('result' in answer) {
            answers.set(answer.operation, answer.result);
            return answer.operation;
          }
          if (connection.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SOCKET)
            return [subscriptionLimitReached(MAX_SUBSCRIPTIONS_PER_SOCKET).toGraphQLError()];
          connection.subscriptions.add(id);
          // A subscription's caller is the socket's standing account.
          const context = contextOf(connection);
          owners.set(context, connection);
          const args = { ...answer.subscription, contextValue: context };
          opening.set(args, listens);
          opens = true;
          return args;
        } finally {
          if (!opens) listens();
        }
      },
      // The signature, the expiry and the sessions this instance knows ended are checked here (in
      // memory); the session and account are read before each operation (a socket whose session has
      // ended closes at its first), so a reconnection storm after a deploy costs the database nothing
      // until the sockets are used.
      onConnect: (ctx) => {
        const socket = ctx.extra.socket;
        const auth = caller.auth(String(ctx.connectionParams?.authorization ?? ''));
        const userId = auth.userId;
        if (!userId) return refuse(socket, auth.error ?? unauthenticated());
        if ((byUser.get(userId)?.size ?? 0) >= MAX_SOCKETS_PER_ACCOUNT) {
          // As in `refuse`: this close comes first and is the one sent.
          socket.close(TOO_MANY_SOCKETS, 'Too many connections for this account');
          return false;
        }
        const connection: Connection = {
          socket,
          auth: { ...auth, userId },
          // The client as HTTP requests name it (behind trusted proxies, X-Forwarded-For): their rate limits key on it.
          ip: caller.address(ctx.extra.request),
          closing: false,
          generation: 0,
          subscriptions: new Set(),
          listening: Promise.resolve(),
        };
        connections.set(socket, connection);
        register(connection);
        return true;
      },
      // A subscription ended (by the client, the server or an error): its place is free again.
      onComplete: (ctx, id) => void connections.get(ctx.extra.socket)?.subscriptions.delete(id),
      onClose: (ctx) => {
        const connection = connections.get(ctx.extra.socket);
        if (connection) unregister(connection);
      },
      // A refused subscription answers one result with the error, as a refused query does.
      subscribe: async (args) => {
        try {
          return await openSubscription(args);
        } finally {
          opening.get(args)?.();
        }
      },
      // Apollo ran it already (onSubscribe).
      execute: (args) => answers.get(args)!,
    },
    wsServer,
  );
  return {
    wsServer,
    /** Sockets open (signed in or not yet) and subscriptions running, for /metrics. */
    stats: () => ({
      sockets: wsServer.clients.size,
      subscriptions: [...byUser.values()].reduce(
        (sum, sockets) => sum + [...sockets].reduce((n, c) => n + c.subscriptions.size, 0),
        0,
      ),
    }),
    /** Closes every socket and ends the subscriptions, for a graceful shutdown. */
    dispose: async () => {
      for (const stop of stopListening) stop();
      await server.dispose();
    },
  };
}

/**
 * A subscription is checked by the rules of the same map that guards queries (graphql middleware
 * only wraps the resolver, which runs per event) when it opens and again before an event once the
 * bus has said the subscriber changed: each root field's rule with its arguments; a field without a
 * rule is refused. So a role removed, or an account suspended, stops the events at once.
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
      await enforce(
        rule,
        ctx,
        `Subscription.${selection.name.value}`,
        getArgumentValues(fields[selection.name.value], selection, args.variableValues ?? {}),
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return new GraphQLError(error.message, { originalError: error, path: [selection.name.value] });
    }
  }
  return null;
}
