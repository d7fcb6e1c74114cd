import {
  accessTokenExpired,
  AppError,
  databaseUnavailable,
  type ErrorCode,
  type ErrorExtra,
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

/** A request GraphQL refused (not an operation, a variable that does not fit): graphql's words or ours, and the fields at fault. */
export const invalidRequest = (message: string, details: FieldError[]) =>
  new AppError('validation_failed', message, { details });

/** A GraphQL error made with one of our codes, as the error it stands for. */
export const errorOfCode = (code: ErrorCode, message: string, extra: ErrorExtra) => new AppError(code, message, extra);

/** The database away during an operation, as GraphQL and REST have answered it: without the reason. */
export const operationDatabaseUnavailable = () => new AppError('upstream_unavailable', databaseUnavailable().message);

/** A REST page over the largest: PageArgs's refusal of `first`, named by the REST parameter. */
export const pageTooLarge = (max: number) =>
  validationFailed([{ field: 'limit', message: `must not be greater than ${max}` }]);
