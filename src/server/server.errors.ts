import { accessTokenExpired, notFound, reasons, sessionEnded } from '../kernel/errors';

/** The refusals of the HTTP and WebSocket front (docs/errors.md), named once for every step that answers with them. */

const reason = reasons('server', {
  subscription_limit_reached: 'limit_reached',
});

export const unknownPath = () => notFound('path');

export const subscriptionLimitReached = (max: number) =>
  reason.subscription_limit_reached(`At most ${max} subscriptions run on one connection: complete one first.`);
export const connectionSessionEnded = () => sessionEnded('The session of this connection has ended; sign in again.');
export const connectionTokenExpired = () =>
  accessTokenExpired('The access token has expired; refresh it and connect again.');
