/**
 * Announced (on every instance, through the event bus) when sessions of an account end: a logout,
 * a password reset, a refresh token used twice, a suspension, a deletion request or an erasure.
 * Live connections of that account check at once whether their token still stands.
 */
export const SESSIONS_ENDED = 'SESSIONS_ENDED';
/** One topic key for all accounts: each instance listens once, not once per socket. */
export const SESSIONS_ENDED_KEY = 'all';

export interface SessionsEndedEvent {
  userId: string;
}

/** Whether a token's session still stands: `ended` (401) or `suspended` (403 account_suspended) end it. */
export type SessionState = 'live' | 'ended' | 'suspended';
