import { GraphQLError } from 'graphql';

/** The error codes of DESIGN.md 4.2 and the HTTP status each answers with. */
export const errorStatus = {
  validation_failed: 400,
  invalid_json: 400,
  unauthenticated: 401,
  forbidden: 403,
  email_not_verified: 403,
  guardian_required: 403,
  consent_required: 403,
  guardian_consent_required: 403,
  tier_required: 403,
  account_suspended: 403,
  feature_disabled: 403,
  account_deletion_pending: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  limit_reached: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  upstream_error: 502,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  retryAfter?: number;
  details?: FieldError[];
}

/**
 * An error a client may see. Areas name their own subclasses; whatever is not an AppError
 * leaves the service as internal_error, so no driver or SQL text can reach a response.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { retryAfter?: number; details?: FieldError[] } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorStatus[this.code];
  }

  toBody(): ErrorBody {
    return { error: this.code, message: this.message, ...this.extra };
  }

  toGraphQLError(): GraphQLError {
    return new GraphQLError(this.message, {
      extensions: { code: this.code.toUpperCase(), ...this.extra },
    });
  }
}

export const unauthenticated = (message = 'Sign in to do this: the access token is missing, invalid or expired.') => new AppError('unauthenticated', message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError('forbidden', message);
export const notFound = (what = 'resource') => new AppError('not_found', `No such ${what}.`);
export const conflict = (message: string) => new AppError('conflict', message);
export const validationFailed = (details: FieldError[], message = 'The request is invalid.') => new AppError('validation_failed', message, { details });

export const accountSuspended = () => new AppError('account_suspended', 'This account is suspended. Contact the platform to have it reactivated.');
export const databaseUnavailable = () => new AppError('upstream_unavailable', 'The database cannot be reached. Try again later.');

// The kernel's own refusals, named once for the steps and helpers that raise them.
export const payloadTooLarge = () => new AppError('payload_too_large', 'The request body is too large.');
export const jsonBodyRequired = () => new AppError('unsupported_media_type', 'The request body must be JSON, sent with Content-Type: application/json.');
export const bodyNotAnObject = () => validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
export const unknownCursor = () => validationFailed([{ field: 'after', message: 'is not a cursor of this list' }]);
export const malformedAuthorization = () => unauthenticated('The Authorization header must be "Bearer <access token>".');
export const accessTokenExpired = () => unauthenticated('The access token has expired; refresh it.');
export const sessionEnded = () => unauthenticated('The session of this access token has ended; sign in again.');

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in errorStatus;
}

export const internalErrorBody: ErrorBody = {
  error: 'internal_error',
  message: 'Something went wrong on our side. Try again later.',
};
