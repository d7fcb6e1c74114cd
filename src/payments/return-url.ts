import type { Config } from '../config';

/**
 * Whether a browser may be sent to `url` once a payment is done: only to the web app or the app
 * (WEB_ORIGIN, APP_ORIGIN), whatever page of theirs. Origins are compared parsed (scheme, host and
 * port), never as text: `https://app.example.evil.com` and `https://app.example@evil.com` start with
 * `https://app.example` and lead elsewhere.
 */
export function isOwnReturnUrl(config: Pick<Config, 'WEB_ORIGIN' | 'APP_ORIGIN'>, url: string): boolean {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password)
    return false;
  return [config.WEB_ORIGIN, config.APP_ORIGIN].some((own) => URL.parse(own)?.origin === parsed.origin);
}
