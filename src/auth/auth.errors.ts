import { reasons, validationFailed } from '../kernel/errors';

/** The refusals of accounts and sessions (docs/errors.md), in the words of the specification. */

const reason = reasons('auth', {
  email_taken: 'conflict',
  wrong_credentials: 'unauthenticated',
  refresh_token_reused: 'unauthenticated',
  invalid_refresh_token: 'unauthenticated',
});

export const emailTaken = () => reason.email_taken('An account with this e-mail address exists already.');
export const wrongCredentials = () => reason.wrong_credentials('The e-mail address or the password is wrong.');
export const refreshTokenReused = () =>
  reason.refresh_token_reused('This refresh token was used already; the session has ended. Sign in again.');
export const invalidRefreshToken = () =>
  reason.invalid_refresh_token('The refresh token is invalid or has expired. Sign in again.');
export const invalidToken = () =>
  validationFailed([{ field: 'token', message: 'The token is invalid, used or expired.' }]);
