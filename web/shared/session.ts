import { api, ApiFailure } from './api';

/**
 * The admin pages' sign-in, one for every page of ours in a browser tab: the console and the course
 * factory link to each other and both survive a reload.
 *
 * Kept in sessionStorage, which belongs to one tab and is gone when the tab closes: another tab (or
 * window) signs in for itself, and nothing outlives the tab on a shared computer. A script running
 * in this tab could read it, as it could read a token in memory and call the API with it; what keeps
 * such scripts out is the pages' CSP (scripts from our origin only, no inline script, no framing) and
 * the pages writing what the API answers as text, never as markup. An HttpOnly cookie would hide the
 * token from scripts, but the API takes bearer tokens only, and a cookie would bring CSRF with it.
 * What a stolen refresh token is worth is bounded by the API: each is replaced when used, and one
 * used twice ends its whole session.
 */
const KEY = 'admin.session';
/** Renewed this long before it expires, so that no call and no socket carries an expired token. */
const MARGIN_MS = 30_000;

interface Stored {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
}

interface AuthPayload {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

function read(): Stored | null {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Stored | null;
  } catch {
    return null;
  }
}

function keep(payload: AuthPayload): void {
  const stored: Stored = {
    accessToken: payload.accessToken,
    refreshToken: payload.refreshToken,
    expiresAt: Date.now() + payload.expiresIn * 1000,
  };
  sessionStorage.setItem(KEY, JSON.stringify(stored));
}

export function signedIn(): boolean {
  return read() !== null;
}

export async function logIn(email: string, password: string): Promise<void> {
  keep(await api<AuthPayload>('POST', '/auth/login', null, { email, password }));
}

/** One refresh at a time: a refresh token is good once, and two calls may find the token old together. */
let refreshing: Promise<string | null> | null = null;

function refresh(): Promise<string | null> {
  refreshing ??= (async () => {
    const stored = read();
    if (!stored) return null;
    try {
      keep(await api<AuthPayload>('POST', '/auth/refresh', null, { refreshToken: stored.refreshToken }));
      return read()!.accessToken;
    } catch (error) {
      // Refused: the session has ended (logged out elsewhere, suspended, expired). Anything else may pass.
      if (error instanceof ApiFailure && error.status === 401) sessionStorage.removeItem(KEY);
      throw error;
    }
  })().finally(() => (refreshing = null));
  return refreshing;
}

/** An access token that is good for a while yet, renewed first when it is not; null when signed out. */
export async function accessToken(): Promise<string | null> {
  const stored = read();
  if (!stored) return null;
  return stored.expiresAt - MARGIN_MS > Date.now() ? stored.accessToken : refresh();
}

/** A call as the signed-in account; a token refused early (a clock ahead of ours) is renewed once. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await api<T>(method, path, await accessToken(), body);
  } catch (error) {
    if (!(error instanceof ApiFailure && error.status === 401 && signedIn())) throw error;
    return api<T>(method, path, await refresh(), body);
  }
}

/** Ends the session at the API too, so that its refresh token is good for nothing afterwards. */
export async function signOut(): Promise<void> {
  const stored = read();
  sessionStorage.removeItem(KEY);
  if (stored) await api('POST', '/auth/logout', null, { refreshToken: stored.refreshToken }).catch(() => undefined);
}
