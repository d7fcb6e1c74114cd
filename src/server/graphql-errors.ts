import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, databaseUnavailable, type FieldError, isErrorCode } from '../kernel/errors';
import { coercionDetails, validationDetails } from '../kernel/validation';

/** Apollo's own codes for a request that is not a valid operation, or whose variables do not fit. */
const requestErrorCodes = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
]);

/**
 * Refusals of the request itself that Apollo leaves without a code of ours (they were answered as
 * internal errors): which field of the request is at fault. The persisted-query message is Apollo's
 * own, which automatic-persisted-query clients read to send the full query.
 */
const requestRefusals: Record<string, FieldError> = {
  PERSISTED_QUERY_NOT_FOUND: {
    field: 'extensions.persistedQuery',
    message: 'is not a query this server knows; send the query with it',
  },
  PERSISTED_QUERY_NOT_SUPPORTED: { field: 'extensions.persistedQuery', message: 'persisted queries are not supported' },
};

export type ErrorLogger = (error: unknown) => void;

/** graphql-js names the closest fields, types and enum values ("Did you mean ...?"): a map of the schema for whoever probes it. */
function withoutSuggestions(message: string): string {
  return message.replace(/ ?Did you mean(.+?)\?$/, '');
}

/**
 * Gives every GraphQL error one of our codes (docs/errors.md) and nothing else: anything we did not
 * raise on purpose is logged and answered as INTERNAL_ERROR, so no stack, SQL or driver text leaves.
 * With `hideSchema` (production) the suggestions of graphql-js leave no message, not even a
 * variable's (Apollo strips them from validation errors only).
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  log: ErrorLogger,
  hideSchema = false,
): GraphQLFormattedError {
  // A refusal before execution (server/caller-first.ts) has no path, so Apollo's unwrapping leaves it wrapped.
  const wrapped = error instanceof GraphQLError && !error.path ? error.originalError : undefined;
  const original = wrapped instanceof AppError ? wrapped : unwrapResolverError(error);
  const base = { message: formatted.message, locations: formatted.locations, path: formatted.path };
  if (original instanceof AppError) {
    return { ...base, message: original.message, extensions: { code: original.code.toUpperCase(), ...original.extra } };
  }
  if (original instanceof ArgumentValidationError) {
    return {
      ...base,
      message: 'The request is invalid.',
      extensions: { code: 'VALIDATION_FAILED', details: validationDetails(original.extensions.validationErrors) },
    };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && Object.hasOwn(requestRefusals, code)) {
    return { ...base, extensions: { code: 'VALIDATION_FAILED', details: [requestRefusals[code]] } };
  }
  if (typeof code === 'string' && requestErrorCodes.has(code)) {
    const said = hideSchema ? withoutSuggestions(formatted.message) : formatted.message;
    const details = /operation name/i.test(said) ? [{ field: 'operationName', message: said }] : coercionDetails(said);
    // A variable that does not fit is bad input, said by `details`; a bad query keeps graphql's words.
    const message = code === 'BAD_USER_INPUT' && details.length ? 'The request is invalid.' : said;
    return { ...base, message, extensions: { code: 'VALIDATION_FAILED', details } };
  }
  if (typeof code === 'string' && isErrorCode(code.toLowerCase()) && code !== 'INTERNAL_SERVER_ERROR') {
    const { reason, retryAfter, details } = formatted.extensions ?? {};
    return {
      ...base,
      extensions: {
        code,
        ...(reason ? { reason } : {}),
        ...(retryAfter ? { retryAfter } : {}),
        ...(details ? { details } : {}),
      },
    };
  }
  if (isDatabaseUnavailable(original)) {
    const unavailable = databaseUnavailable();
    return { ...base, message: unavailable.message, extensions: { code: 'UPSTREAM_UNAVAILABLE' } };
  }
  log(original);
  return {
    message: 'Something went wrong on our side. Try again later.',
    path: formatted.path,
    extensions: { code: 'INTERNAL_ERROR' },
  };
}
