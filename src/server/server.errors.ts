import { accessTokenExpired, AppError, notFound, reasons, sessionEnded, validationFailed } from '../kernel/errors';

/** The refusals of the HTTP and WebSocket front (docs/errors.md), named once for every step that answers with them. */

const reason = reasons('server', {
  subscription_limit_reached: 'limit_reached',
});

export const methodNotAllowed = () => new AppError('method_not_allowed', 'This path does not take this method; the Allow header lists those it takes.');
export const unknownPath = () => notFound('path');
export const badPercentEncoding = (field: string) => validationFailed([{ field, message: 'is not valid percent-encoded UTF-8' }]);

export const subscriptionLimitReached = (max: number) => reason.subscription_limit_reached(`At most ${max} subscriptions run on one connection: complete one first.`);
export const connectionSessionEnded = () => sessionEnded('The session of this connection has ended; sign in again.');
export const connectionTokenExpired = () => accessTokenExpired('The access token has expired; refresh it and connect again.');
