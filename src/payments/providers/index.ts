import { createHmac } from 'node:crypto';
import type { Config } from '../../config';
import { momoProvider } from './momo';
import { sandboxProvider } from './sandbox';
import { stripeProvider } from './stripe';
import type { PaymentProvider } from './types';
import { vnpayProvider } from './vnpay';

export type { PaymentProvider } from './types';

export interface Providers {
  offered: Map<string, PaymentProvider>;
  /** Used when a checkout names none. */
  defaultName: string;
  sandboxSecret: string;
}

/** The secret the sandbox signs its events with: a setting, else derived from the JWT secret (the same on every instance). */
export function sandboxSecretOf(config: Config): string {
  return (
    config.SANDBOX_WEBHOOK_SECRET ?? createHmac('sha256', config.JWT_SECRET).update('sandbox-webhooks').digest('hex')
  );
}

/**
 * The providers the settings configure, and the sandbox: `on` always; `auto` when no other provider
 * is configured and never in production (its Pay button gives the product away, so a deployment
 * that forgot its provider settings sells nothing rather than everything for free); `off` never.
 */
export function createProviders(config: Config, deliverSandbox: (body: string) => void): Providers {
  const offered = new Map<string, PaymentProvider>();
  const baseUrl = config.API_PUBLIC_URL;
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    offered.set(
      'stripe',
      stripeProvider({
        secretKey: config.STRIPE_SECRET_KEY,
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        apiUrl: config.STRIPE_API_URL,
        baseUrl,
      }),
    );
  }
  if (config.VNPAY_TMN_CODE && config.VNPAY_HASH_SECRET) {
    offered.set(
      'vnpay',
      vnpayProvider({
        tmnCode: config.VNPAY_TMN_CODE,
        hashSecret: config.VNPAY_HASH_SECRET,
        paymentUrl: config.VNPAY_PAYMENT_URL,
        apiUrl: config.VNPAY_API_URL,
        baseUrl,
      }),
    );
  }
  if (config.MOMO_PARTNER_CODE && config.MOMO_ACCESS_KEY && config.MOMO_SECRET_KEY) {
    offered.set(
      'momo',
      momoProvider({
        partnerCode: config.MOMO_PARTNER_CODE,
        accessKey: config.MOMO_ACCESS_KEY,
        secretKey: config.MOMO_SECRET_KEY,
        apiUrl: config.MOMO_API_URL,
        baseUrl,
      }),
    );
  }
  const sandboxSecret = sandboxSecretOf(config);
  const sandbox =
    config.PAYMENTS_SANDBOX === 'on' ||
    (config.PAYMENTS_SANDBOX === 'auto' && offered.size === 0 && config.NODE_ENV !== 'production');
  if (sandbox) offered.set('sandbox', sandboxProvider(sandboxSecret, baseUrl, deliverSandbox));
  return { offered, defaultName: sandbox ? 'sandbox' : ([...offered.keys()][0] ?? 'sandbox'), sandboxSecret };
}
