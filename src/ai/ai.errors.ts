import { AppError, type ErrorCode, forbidden, type FieldError, validationFailed } from '../kernel/errors';

/** The refusals of the AI tutor and its proxy (DESIGN.md 4.2), in the words of the specification. */

export const aiTurnedOff = () => forbidden('Your guardian has turned the AI tutor off for your account.');
export const aiMemoryTurnedOff = () => forbidden('Your guardian has turned AI memory off for your account.');
export const emptyMessage = () => validationFailed([{ field: 'message', message: 'must not be empty' }]);
export const messageTooLong = (max: number) => validationFailed([{ field: 'message', message: `must be at most ${max} characters long` }]);
export const quotaExceeded = (limit: number, retryAfter: number) => new AppError('quota_exceeded', `Today's AI messages are used up (${limit}). They come back at midnight UTC.`, { retryAfter });

/** A chat body refused as GraphQL coerces `$input`: with the details found, else GraphQL's own message and none. */
export const invalidChatInput = (details: FieldError[], message: string) => (details.length ? validationFailed(details) : new AppError('validation_failed', message, { details: [] }));

// What the AI backend's answers become.
export const aiNotConfigured = () => new AppError('upstream_unavailable', 'The AI tutor is not configured on this server: set AI_BACKEND_URL and AI_BACKEND_SECRET.');
export const aiUnreachable = () => new AppError('upstream_unavailable', 'The AI service cannot be reached. Try again later.');
export const aiCircuitOpen = () => new AppError('upstream_unavailable', 'The AI service is unavailable at the moment. Try again in a few seconds.');
export const aiUpstreamError = () => new AppError('upstream_error', 'The AI service answered with an error. Try again later.');
/** A 4xx of the backend, with our code for it; `retryAfter` is its Retry-After header in seconds (not a positive number: 1). */
export const aiRefused = (code: ErrorCode, retryAfter: number) =>
  new AppError(code, code === 'rate_limited' ? 'The AI service is busy. Try again later.' : 'The AI service refused the request.', {
    ...(code === 'rate_limited' ? { retryAfter: retryAfter > 0 ? retryAfter : 1 } : {}),
    ...(code === 'validation_failed' ? { details: [] } : {}),
  });
