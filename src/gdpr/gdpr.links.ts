import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

/** Where the API is reached from outside: API_PUBLIC_URL, else this host's port. */
export function apiBase(config: Pick<Config, 'API_PUBLIC_URL' | 'PORT'>): string {
  return (config.API_PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
}

function key(secret: string): Buffer {
  return createHmac('sha256', secret).update('gdpr-export-download').digest();
}

function sign(secret: string, requestId: string, expires: number): string {
  return createHmac('sha256', key(secret)).update(`${requestId}.${expires}`).digest('base64url');
}

/** A link to the export's ZIP that works without a token until `expiresAt`, and only as signed. */
export function downloadUrl(
  config: Pick<Config, 'API_PUBLIC_URL' | 'PORT' | 'JWT_SECRET'>,
  requestId: string,
  expiresAt: Date,
): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${apiBase(config)}/gdpr/requests/${requestId}/download?expires=${expires}&signature=${sign(config.JWT_SECRET, requestId, expires)}`;
}

export type LinkCheck = 'ok' | 'expired' | 'invalid';

export function checkDownload(
  secret: string,
  requestId: string,
  expiresParam: unknown,
  signatureParam: unknown,
  now = new Date(),
): LinkCheck {
  if (typeof expiresParam !== 'string' || typeof signatureParam !== 'string' || !/^\d{1,12}$/.test(expiresParam))
    return 'invalid';
  const expected = Buffer.from(sign(secret, requestId, Number(expiresParam)));
  const given = Buffer.from(signatureParam);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return Number(expiresParam) * 1000 <= now.getTime() ? 'expired' : 'ok';
}

/** The pseudonym an erased account's kept records point to: stable per account, not reversible without the secret. */
export function pseudonymOf(secret: string, userId: string): string {
  const hex = createHmac('sha256', secret).update(`gdpr-pseudonym:${userId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
