import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ArgumentValidationError } from 'type-graphql';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, type ErrorExtra, type FieldError, isErrorCode, validationFailed } from '../kernel/errors';
import { coercionDetails, validationDetails } from '../kernel/validation';
import { graphqlErrorOf } from './chain/errors';
import { errorOfCode, invalidRequest, operationDatabaseUnavailable } from './server.errors';

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
 * What is not internal is told as an error of ours, shaped by the request chain (chain/errors.ts),
 * which also makes the REST body of a stored operation from it. With `hideSchema` (production) the
 * suggestions of graphql-js leave no message, not even a variable's (Apollo strips them from
 * validation errors only).
 */
export function formatGraphQLError(
  formatted: GraphQLFormattedError,
  error: unknown,
  log: ErrorLogger,
  hideSchema = false,
): GraphQLFormattedError {
  const ours = asOurError(formatted, error, hideSchema);
  if (ours) return graphqlErrorOf(ours, formatted);
  log(originalOf(error));
  return {
    message: 'Something went wrong on our side. Try again later.',
    path: formatted.path,
    extensions: { code: 'INTERNAL_ERROR' },
  };
}

/** The error under Apollo's wrapping: a refusal before execution (server/caller-first.ts) has no path, so Apollo's unwrapping leaves it wrapped. */
function originalOf(error: unknown): unknown {
  const wrapped = error instanceof GraphQLError && !error.path ? error.originalError : undefined;
  return wrapped instanceof AppError ? wrapped : unwrapResolverError(error);
}

/** A GraphQL failure as the error of ours it is: raised by us, an invalid argument or request, the database away; none when internal. */
function asOurError(formatted: GraphQLFormattedError, error: unknown, hideSchema: boolean): AppError | undefined {
  const original = originalOf(error);
  if (original instanceof AppError) return original;
  if (original instanceof ArgumentValidationError)
    return validationFailed(validationDetails(original.extensions.validationErrors));
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && Object.hasOwn(requestRefusals, code)) {
    return invalidRequest(formatted.message, [requestRefusals[code]]);
  }
  if (typeof code === 'string' && requestErrorCodes.has(code)) {
    const said = hideSchema ? withoutSuggestions(formatted.message) : formatted.message;
    const details = /operation name/i.test(said) ? [{ field: 'operationName', message: said }] : coercionDetails(said);
    // A variable that does not fit is bad input, said by `details`; a bad query keeps graphql's words.
    const message = code === 'BAD_USER_INPUT' && details.length ? 'The request is invalid.' : said;
    return invalidRequest(message, details);
  }
  // A GraphQL error made with one of our codes (AppError.toGraphQLError), its error not kept beside it.
  const lower = typeof code === 'string' ? code.toLowerCase() : undefined;
  if (isErrorCode(lower)) {
    const { reason, retryAfter, details } = formatted.extensions as ErrorExtra;
    return errorOfCode(lower, formatted.message, {
      ...(reason ? { reason } : {}),
      ...(retryAfter ? { retryAfter } : {}),
      ...(details ? { details } : {}),
    });
  }
  // Without the reason: the GraphQL and REST answers of an operation said none.
  if (isDatabaseUnavailable(original)) return operationDatabaseUnavailable();
  return undefined;
}
