import { conflict, unauthenticated, validationFailed } from '../kernel/errors';

/** The refusals of accounts and sessions (DESIGN.md 4.2), in the words of the specification. */

export const emailTaken = () => conflict('An account with this e-mail address exists already.');
export const wrongCredentials = () => unauthenticated('The e-mail address or the password is wrong.');
export const refreshTokenReused = () => unauthenticated('This refresh token was used already; the session has ended. Sign in again.');
export const invalidRefreshToken = () => unauthenticated('The refresh token is invalid or has expired. Sign in again.');
export const invalidToken = () => validationFailed([{ field: 'token', message: 'The token is invalid, used or expired.' }]);
