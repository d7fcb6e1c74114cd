import { AppError, type ErrorCode, reasons, validationFailed } from '../kernel/errors';

/** The refusals of the AI tutor and its proxy (docs/errors.md), in the words of the specification. */

const reason = reasons('ai', {
  ai_tutor_turned_off: 'forbidden',
  ai_memory_turned_off: 'forbidden',
  ai_not_configured: 'upstream_unavailable',
  ai_unreachable: 'upstream_unavailable',
  ai_temporarily_unavailable: 'upstream_unavailable',
  ai_service_error: 'upstream_error',
  ai_service_busy: 'rate_limited',
});

export const aiTurnedOff = () =>
  reason.ai_tutor_turned_off('Your guardian has turned the AI tutor off for your account.');
export const aiMemoryTurnedOff = () =>
  reason.ai_memory_turned_off('Your guardian has turned AI memory off for your account.');
export const emptyMessage = () => validationFailed([{ field: 'message', message: 'must not be empty' }]);
export const messageTooLong = (max: number) =>
  validationFailed([{ field: 'message', message: `must be at most ${max} characters long` }]);
export const quotaExceeded = (limit: number, retryAfter: number) =>
  new AppError('quota_exceeded', `Today's AI messages are used up (${limit}). They come back at midnight UTC.`, {
    retryAfter,
  });

// What the AI backend's answers become.
export const aiNotConfigured = () =>
  reason.ai_not_configured('The AI tutor is not configured on this server: set AI_BACKEND_URL and AI_BACKEND_SECRET.');
export const aiUnreachable = () => reason.ai_unreachable('The AI service cannot be reached. Try again later.');
export const aiCircuitOpen = () =>
  reason.ai_temporarily_unavailable('The AI service is unavailable at the moment. Try again in a few seconds.');
export const aiUpstreamError = () => reason.ai_service_error('The AI service answered with an error. Try again later.');
/**
 * A 4xx of the backend, with our code for it; `retryAfter` is its Retry-After header in seconds (not
 * a positive number: 1). Busy is told apart from our own rate limit; any other refusal is passed on
 * with the backend's kind, which is the only thing known of it.
 */
export const aiRefused = (code: ErrorCode, retryAfter: number) =>
  code === 'rate_limited'
    ? reason.ai_service_busy('The AI service is busy. Try again later.', {
        retryAfter: retryAfter > 0 ? retryAfter : 1,
      })
    : new AppError(code, 'The AI service refused the request.', code === 'validation_failed' ? { details: [] } : {});
