import type { ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { CloseCode } from 'graphql-ws';
import type { Logger } from 'pino';
import { challenge, sendError } from '../../../rest/adapter';
import { sendJson } from '../../kernel/json-answer';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { AppError, databaseUnavailable, type ErrorBody, errorStatus, internalErrorBody } from '../../kernel/errors';
import { MAX_PAGE_SIZE } from '../../kernel/pagination';
import { restDetail } from '../../kernel/rest-details';
import { pageTooLarge } from '../server.errors';

/*
 * The error link of the chain: one mapping of a failure to what each transport answers, the REST
 * error object, an area's error as GraphQL answers it (and, from that same error, the REST body of a
 * stored operation), the GraphQL error of a refusal before execution, a socket's close code. Internal
 * failures are logged with the request id and answered as internal_error: nothing internal leaves.
 */

/** The error object of any failure: ours as raised, the body parser's and router's as input refusals, the rest internal. */
export function errorBodyOf(error: unknown): ErrorBody {
  if (error instanceof AppError) return error.toBody();
  if (isDatabaseUnavailable(error)) return databaseUnavailable().toBody();
  const type = (error as { type?: string }).type;
  if (type === 'entity.parse.failed') return { error: 'invalid_json', message: 'The request body is not valid JSON.' };
  if (type === 'entity.too.large') return { error: 'payload_too_large', message: 'The request body is too large.' };
  // A path whose percent-encoding is not UTF-8 (`%ED%A0%80`, a lone surrogate): the router could not decode it.
  if (error instanceof URIError || (error as { status?: number }).status === 400) {
    return {
      error: 'validation_failed',
      message: 'The request path is malformed.',
      details: [{ field: 'path', message: 'is not valid percent-encoded UTF-8' }],
    };
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { error: 'validation_failed', message: 'The request body encoding is not supported.', details: [] };
  }
  return internalErrorBody;
}

/** The error object of a failed request (an answer already begun is only ended); internal failures are logged, never shown. */
export function answerError(log: Logger, requestId: string, res: ServerResponse, error: unknown): void {
  const body = errorBodyOf(error);
  if (body === internalErrorBody) log.error({ err: error, requestId }, 'request failed');
  if (res.headersSent) res.end();
  else sendError(res, body);
}

/** A failure of `/graphql` before execution: the error object, with `errors` beside it for GraphQL clients. */
export function answerGraphqlError(log: Logger, requestId: string, res: ServerResponse, error: unknown): void {
  const body = errorBodyOf(error);
  if (body === internalErrorBody) log.error({ err: error, requestId }, 'request failed');
  if (res.headersSent) return void res.end();
  const { error: code, message, ...extra } = body;
  if (extra.retryAfter !== undefined) res.setHeader('Retry-After', extra.retryAfter);
  if (code === 'unauthenticated') challenge(res);
  sendJson(res, errorStatus[code], {
    ...body,
    errors: [{ message, extensions: { code: code.toUpperCase(), ...extra } }],
  });
}

/**
 * The error each GraphQL error was formatted from (graphqlErrorOf), by the formatted object Apollo
 * hands back: the REST adapter's body of a failed operation is made from the error itself, not
 * parsed back from the code and extensions GraphQL clients read.
 */
const formattedFrom = new WeakMap<GraphQLFormattedError, AppError>();

/** An error of ours as GraphQL answers it: its message, its code in capitals, its reason, retry time and details. */
export function graphqlErrorOf(
  error: AppError,
  at: Pick<GraphQLFormattedError, 'locations' | 'path'> = {},
): GraphQLFormattedError {
  const formatted = {
    message: error.message,
    locations: at.locations,
    path: at.path,
    extensions: { code: error.code.toUpperCase(), ...error.extra },
  };
  formattedFrom.set(formatted, error);
  return formatted;
}

/**
 * The REST error object of a stored operation's failure, from the error its GraphQL error was
 * formatted from: details named by the REST parameter or body field. Anything else was answered
 * as an internal error, and is one here too.
 */
export function restErrorBodyOf(formatted: GraphQLFormattedError, variables: Record<string, unknown>): ErrorBody {
  const error = formattedFrom.get(formatted);
  if (!error) return internalErrorBody;
  // A page larger than PageArgs allows is priced (server/query-cost.ts) before its arguments are
  // checked, and refused as a query too expensive: over REST, it is the `limit` that is too large.
  if (error.code === 'validation_failed' && typeof variables.first === 'number' && variables.first > MAX_PAGE_SIZE) {
    return pageTooLarge(MAX_PAGE_SIZE).toBody();
  }
  const { reason, retryAfter, details } = error.extra;
  const body: ErrorBody = { error: error.code, message: error.message };
  if (typeof reason === 'string') body.reason = reason;
  if (typeof retryAfter === 'number') body.retryAfter = retryAfter;
  if (details) body.details = details.map(restDetail);
  return body;
}

/**
 * A refusal before execution as Apollo sends it: our code and extras (formatGraphQLError reads the
 * original), and over HTTP the status REST gives it, with Retry-After when it says when to retry.
 */
export function graphqlRefusal(refusal: AppError): GraphQLError {
  const headers = new HeaderMap();
  if (refusal.extra.retryAfter !== undefined) headers.set('retry-after', String(refusal.extra.retryAfter));
  return new GraphQLError(refusal.message, {
    originalError: refusal,
    extensions: { code: refusal.code.toUpperCase(), ...refusal.extra, http: { status: refusal.status, headers } },
  });
}

/**
 * How a socket refused at its caller closes: 4403 for an account that may not connect (suspended,
 * or its erasure pending: it may only read itself and cancel, over HTTP), 4401 for a token the
 * client refreshes or signs in again for (missing, invalid, expired, its session ended).
 */
export const closeCodeOf = (refusal: AppError): number =>
  refusal.code === 'account_suspended' || refusal.code === 'account_deletion_pending'
    ? CloseCode.Forbidden
    : CloseCode.Unauthorized;
