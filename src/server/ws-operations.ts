import { type ApolloServer, type ApolloServerPlugin, HeaderMap } from '@apollo/server';
import {
  type ExecutionArgs,
  type ExecutionResult,
  getVariableValues,
  GraphQLError,
  type GraphQLFormattedError,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { Context } from '../kernel/context';

/*
 * GraphQL over the WebSocket runs through the ApolloServer that serves HTTP: the same parsing,
 * validation rules, plugins (input guard, introspection, cost, metrics) and formatError, so a
 * refusal reads the same on both. Apollo has no subscriptions: for one sent over the socket, the
 * plugin below answers once Apollo has validated and checked it, without executing it, and hands
 * the document and variables back to ws.ts, which opens the event stream and runs each event
 * (eachEvent), formatted by the formatError Apollo uses (formatResult).
 */

/** What Apollo resolved for an operation sent over the socket: what graphql-ws executes or subscribes with. */
export type SocketOperation = Pick<ExecutionArgs, 'schema' | 'document' | 'operationName' | 'variableValues'>;

/** How one operation from the socket came out of Apollo. */
export type SocketAnswer =
  /** Refused before it ran: graphql-ws's `error` message. */
  | { refused: GraphQLError[] }
  /** A query or mutation Apollo ran, its errors formatted. */
  | { operation: SocketOperation; result: ExecutionResult }
  /** A subscription, validated and checked, for ws.ts to open. */
  | { subscription: SocketOperation };

/** Set on the context of an operation sent over the socket (Apollo copies the context, own properties and all). */
const SOCKET = Symbol('socket operation');

interface Slot {
  /** Called once the operation is known to be no subscription about to listen: the socket's next operation may start. */
  release(): void;
  resolved?: SocketOperation;
  subscription?: boolean;
}

type SocketContext = Context & { [SOCKET]?: Slot };

/**
 * The Apollo plugin of the socket: leaves requests over HTTP alone; for a subscription from the
 * socket, answers in place of execution (`responseForOperation` runs after every plugin's
 * `didResolveOperation` accepted it, and the metrics' `willSendResponse` still counts it).
 */
export function socketOperationsPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ contextValue }) {
      const slot = (contextValue as SocketContext)[SOCKET];
      if (!slot) return;
      return {
        async responseForOperation({ schema, document, operation, request }) {
          slot.resolved = { schema, document, operationName: request.operationName, variableValues: request.variables };
          // Variables that do not fit are left to Apollo's execution, which refuses them before any
          // resolver runs, in the words (and locations) it uses over HTTP.
          if (
            operation?.operation !== 'subscription' ||
            getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {}).errors
          ) {
            slot.release();
            return null;
          }
          slot.subscription = true;
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: {} } };
        },
      };
    },
  };
}

/** Runs an operation sent over the socket through Apollo with `context`; `release` as in Slot. */
export async function runOnSocket(
  apollo: ApolloServer<Context>,
  payload: SubscribePayload,
  context: Context,
  release: () => void,
): Promise<SocketAnswer> {
  const slot: Slot = { release };
  const { query, variables, operationName, extensions } = payload;
  const request = {
    query,
    variables: variables ?? undefined,
    operationName: operationName ?? undefined,
    extensions: extensions ?? undefined,
  };
  const response = await apollo.executeOperation(request, { contextValue: Object.assign(context, { [SOCKET]: slot }) });
  // Incremental delivery (@defer) needs graphql 17: with 16 every answer is single.
  if (response.body.kind !== 'single') throw new Error('Apollo answered an operation in parts');
  const { data, errors } = response.body.singleResult;
  if (slot.subscription) return { subscription: slot.resolved! };
  if (data === undefined) return { refused: (errors ?? []).map((error) => new FormattedError(error)) };
  return {
    operation: slot.resolved!,
    result: { ...response.body.singleResult, errors: errors?.map((error) => new FormattedError(error)) },
  };
}

/**
 * An error already formatted (by Apollo, or by `formatResult`), in the shape graphql-ws takes:
 * it sends each error's `toJSON()`, which is the formatted error itself.
 */
class FormattedError extends GraphQLError {
  constructor(readonly formatted: GraphQLFormattedError) {
    super(formatted.message);
  }

  override toJSON(): GraphQLFormattedError {
    return this.formatted;
  }
}

export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/** An event's result with its errors formatted by Apollo's own formatError. */
export function formatResult(result: ExecutionResult, formatError: FormatError): ExecutionResult {
  return result.errors
    ? { ...result, errors: result.errors.map((error) => new FormattedError(formatError(error.toJSON(), error))) }
    : result;
}

/**
 * Maps each source event to a result, as graphql's `subscribe` does, ending after a result marked
 * last. `return()` reaches the source at once (a client's `complete`, a closed socket), even while
 * no event is pending, which an async generator would delay until the next event.
 */
export function eachEvent(
  source: AsyncIterable<unknown>,
  map: (payload: unknown) => Promise<{ result: ExecutionResult; last: boolean }>,
): AsyncGenerator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  const finish = async (): Promise<IteratorReturnResult<undefined>> => {
    if (!done) {
      done = true;
      await iterator.return?.();
    }
    return { value: undefined, done: true };
  };
  const generator = {
    async next(): Promise<IteratorResult<ExecutionResult, undefined>> {
      if (done) return { value: undefined, done: true };
      const step = await iterator.next();
      if (step.done) {
        done = true;
        return { value: undefined, done: true };
      }
      const { result, last } = await map(step.value);
      if (last) await finish();
      return { value: result, done: false };
    },
    return: finish,
    async throw(error: unknown): Promise<IteratorResult<ExecutionResult, undefined>> {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return generator;
    },
  };
  return generator as unknown as AsyncGenerator<ExecutionResult>;
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}
