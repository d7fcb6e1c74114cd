import { createHash, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../config';
import { accessTokenExpired, AppError, malformedAuthorization, unauthenticated } from './errors';
import { putLast } from './expiry-ordered';
import type { Role } from './domain';
import { isId } from './ids';

export interface AccessClaims {
  sub: string;
  roles: Role[];
  /** The session (refresh token family) the token was issued for, so a live socket can follow it. */
  sid?: string;
  /** The account's home region: whose database serves the request, known without a look-up (global's when absent). */
  region?: string;
}

/** Who the bearer token names, or why it was refused; anonymous requests have neither. */
export interface RequestAuth {
  userId?: string;
  roles?: Role[];
  /** The session the token belongs to (absent in tokens signed before sessions were named). */
  sessionId?: string;
  /** When the token stops being valid (epoch milliseconds). */
  expiresAt?: number;
  /** The account's home region (`region` claim; tokens signed before regions were named are global's). */
  region?: string;
  error?: AppError;
}

const REGION_NAME = /^[a-z]{2,16}$/;

type TokenSettings = Pick<Config, 'JWT_SECRET' | 'JWT_ISSUER' | 'JWT_AUDIENCE' | 'ACCESS_TOKEN_TTL'>;

const keys = new Map<string, KeyObject>();

/** jsonwebtoken turns a string secret into a key on every call, after a failed public-key parse: once is enough. */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret))));
  return key;
}

export function signAccessToken(config: TokenSettings, claims: AccessClaims): string {
  return jwt.sign(
    {
      roles: claims.roles,
      ...(claims.region ? { region: claims.region } : {}),
      ...(claims.sid ? { sid: claims.sid } : {}),
    },
    keyOf(config.JWT_SECRET),
    {
      algorithm: 'HS256',
      subject: claims.sub,
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      expiresIn: config.ACCESS_TOKEN_TTL,
    },
  );
}

/**
 * Tokens that passed, each until its expiry, by settings: a client sends the same token with every
 * request, and checking it again (its HMAC, its JSON, its claims) was 8% of the AI proxy's CPU. The
 * key is the whole token, signature included, so only the very token that passed is taken again;
 * each goes when it expires (tokens are kept in the order they were first seen, about the order
 * they expire in), or as the oldest past VERIFIED_MAX.
 */
const verified = new WeakMap<TokenSettings, Map<string, RequestAuth>>();
const VERIFIED_MAX = 5_000;

/** Reads `Authorization: Bearer <jwt>`; only HS256 with our secret, issuer and audience passes. */
export function authenticateHeader(config: TokenSettings, header: string | undefined): RequestAuth {
  if (!header) return {};
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header.trim());
  if (!match) return { error: malformedAuthorization() };
  let passed = verified.get(config);
  const known = passed?.get(match[1]);
  // As jsonwebtoken decides expiry: whole seconds, expired from `exp` on.
  if (known && Math.floor(Date.now() / 1000) * 1000 < known.expiresAt!) return { ...known, roles: [...known.roles!] };
  const auth = verify(config, match[1]);
  if (auth.error) return auth;
  if (!passed) verified.set(config, (passed = new Map()));
  putLast(
    passed,
    match[1],
    { ...auth, roles: [...auth.roles!] },
    { max: VERIFIED_MAX, expiresAt: (kept) => kept.expiresAt! },
  );
  return auth;
}

/** How many tokens that passed are kept for these settings (the auth area's gauge of it). */
export function tokensKept(config: TokenSettings): number {
  return verified.get(config)?.size ?? 0;
}

function verify(config: TokenSettings, token: string): RequestAuth {
  try {
    const payload = jwt.verify(token, keyOf(config.JWT_SECRET), {
      algorithms: ['HS256'],
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
    });
    // Only the claims we sign pass: an expiry, one user id, a list of role names. jsonwebtoken
    // accepts a token without `exp` and any JSON as `sub`; an array `sub` once named the last user.
    if (typeof payload === 'string' || typeof payload.exp !== 'number') return { error: unauthenticated() };
    if (typeof payload.sub !== 'string' || !isId(payload.sub)) return { error: unauthenticated() };
    const roles: unknown = payload.roles ?? [];
    if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) return { error: unauthenticated() };
    const sid: unknown = payload.sid;
    if (sid !== undefined && (typeof sid !== 'string' || !isId(sid))) return { error: unauthenticated() };
    const region: unknown = payload.region;
    if (region !== undefined && (typeof region !== 'string' || !REGION_NAME.test(region)))
      return { error: unauthenticated() };
    return {
      userId: payload.sub,
      roles: roles as Role[],
      sessionId: sid as string | undefined,
      expiresAt: payload.exp * 1000,
      region: region as string | undefined,
    };
  } catch (error) {
    const expired = error instanceof jwt.TokenExpiredError;
    return { error: expired ? accessTokenExpired() : unauthenticated() };
  }
}

/** An opaque random token for refresh, verification and reset; only its hash is stored. */
export function randomToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
