import {
  accessTokenExpired,
  AppError,
  type FieldError,
  notFound,
  reasons,
  sessionEnded,
  validationFailed,
} from '../kernel/errors';

/** The refusals of the HTTP and WebSocket front (docs/errors.md), named once for every step that answers with them. */

const reason = reasons('server', {
  subscription_limit_reached: 'limit_reached',
});

export const unknownPath = () => notFound('path');

/** A body refused as GraphQL coerces `$input`: with the details found, else GraphQL's own message and none. */
export const invalidInput = (details: FieldError[], message: string) =>
  details.length ? validationFailed(details) : new AppError('validation_failed', message, { details: [] });

export const subscriptionLimitReached = (max: number) =>
  reason.subscription_limit_reached(`At most ${max} subscriptions run on one connection: complete one first.`);
export const connectionSessionEnded = () => sessionEnded('The session of this connection has ended; sign in again.');
export const connectionTokenExpired = () =>
  accessTokenExpired('The access token has expired; refresh it and connect again.');
