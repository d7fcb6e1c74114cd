import { GraphQLError } from 'graphql';

/** The error codes of docs/errors.md and the HTTP status each answers with. */
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
  reason?: string;
  retryAfter?: number;
  details?: FieldError[];
}

/** What an error carries beside its code and message: the reason an area named it by, and the code's own fields. */
export interface ErrorExtra {
  reason?: string;
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
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return errorStatus[this.code];
  }

  get reason(): string | undefined {
    return this.extra.reason;
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

/** A reason as an area declares it: the kind (and so the status) of the errors that carry it. */
export interface DeclaredReason {
  area: string;
  kind: ErrorCode;
}

const declared = new Map<string, DeclaredReason>();

/** Every reason the loaded areas declared, by name: one list for the checks, the OpenAPI document and the docs. */
export const declaredReasons: ReadonlyMap<string, DeclaredReason> = declared;

/** Beside the kind's own fields, for a reason's error: its retry time or its details. */
type ReasonExtra = Omit<ErrorExtra, 'reason'>;

/**
 * Declares an area's reasons, each with its kind: a client switches on `error` and, where it must
 * tell two errors of one kind apart (a taken e-mail from a reused idempotency key, both conflicts),
 * on `reason`. A name is declared once in the whole service, snake_case, so that it stays a stable
 * name a client may keep; a second declaration fails as the module loads, before anything serves.
 */
export function reasons<const R extends Record<string, ErrorCode>>(
  area: string,
  kinds: R,
): { [K in keyof R]: (message: string, extra?: ReasonExtra) => AppError } {
  const raise: Record<string, (message: string, extra?: ReasonExtra) => AppError> = {};
  for (const [reason, kind] of Object.entries(kinds)) {
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(reason))
      throw new Error(`The reason ${reason} of ${area} is not snake_case.`);
    if (!isErrorCode(kind)) throw new Error(`The reason ${reason} of ${area} has no known kind: ${String(kind)}.`);
    const before = declared.get(reason);
    if (before) throw new Error(`The reason ${reason} of ${area} is declared by ${before.area} already.`);
    declared.set(reason, { area, kind });
    raise[reason] = (message, extra = {}) => new AppError(kind, message, { reason, ...extra });
  }
  return raise as { [K in keyof R]: (message: string, extra?: ReasonExtra) => AppError };
}

// Where the kernel tells apart the refusals of one kind that a client acts on differently: an
// expired token is refreshed, an ended session signs in again, a malformed header is a bug, and
// the database down is not the AI service or a payment provider down.
const reason = reasons('kernel', {
  malformed_authorization: 'unauthenticated',
  access_token_expired: 'unauthenticated',
  session_ended: 'unauthenticated',
  database_unavailable: 'upstream_unavailable',
});

export const unauthenticated = (message = 'Sign in to do this: the access token is missing, invalid or expired.') =>
  new AppError('unauthenticated', message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError('forbidden', message);
export const notFound = (what = 'resource') => new AppError('not_found', `No such ${what}.`);
export const validationFailed = (details: FieldError[], message = 'The request is invalid.') =>
  new AppError('validation_failed', message, { details });

export const accountSuspended = () =>
  new AppError('account_suspended', 'This account is suspended. Contact the platform to have it reactivated.');
export const databaseUnavailable = (message = 'The database cannot be reached. Try again later.') =>
  reason.database_unavailable(message);

// The kernel's own refusals, named once for the steps and helpers that raise them.
export const payloadTooLarge = () => new AppError('payload_too_large', 'The request body is too large.');
export const jsonBodyRequired = () =>
  new AppError('unsupported_media_type', 'The request body must be JSON, sent with Content-Type: application/json.');
export const bodyNotAnObject = () => validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
export const unknownCursor = () => validationFailed([{ field: 'after', message: 'is not a cursor of this list' }]);
export const malformedAuthorization = () =>
  reason.malformed_authorization('The Authorization header must be "Bearer <access token>".');
export const accessTokenExpired = (message = 'The access token has expired; refresh it.') =>
  reason.access_token_expired(message);
export const sessionEnded = (message = 'The session of this access token has ended; sign in again.') =>
  reason.session_ended(message);

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in errorStatus;
}

export const internalErrorBody: ErrorBody = {
  error: 'internal_error',
  message: 'Something went wrong on our side. Try again later.',
};
