import type { ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { CloseCode } from 'graphql-ws';
import type { Logger } from 'pino';
import { challenge, sendError } from '../../../rest/adapter';
import { sendJson } from '../../kernel/json-answer';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { AppError, databaseUnavailable, type ErrorBody, errorStatus, internalErrorBody } from '../../kernel/errors';

/*
 * The error link of the chain: one mapping of a failure to what each transport answers, the REST
 * error object, the GraphQL error of a refusal before execution, a socket's close code. Internal
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
