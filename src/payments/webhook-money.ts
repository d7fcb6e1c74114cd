import type { ProviderEvent } from './providers/types';

/**
 * Whether the money a provider's event names is the payment's: the same amount in the same
 * currency (a signed `500 JPY` is not `500 USD`). An amount without its currency is not trusted;
 * an event that names no amount (a Stripe session without a total) is checked by its currency alone.
 */
export function sameMoney(
  event: Pick<ProviderEvent, 'amount' | 'currency'>,
  expected: { amount: number; currency: string },
): boolean {
  if (event.amount !== undefined && event.amount !== expected.amount) return false;
  return sameCurrency(event, expected) && (event.amount === undefined || event.currency !== undefined);
}

/** Whether an event that names a currency names the payment's. */
export function sameCurrency(event: Pick<ProviderEvent, 'currency'>, expected: { currency: string }): boolean {
  return event.currency === undefined || event.currency.toUpperCase() === expected.currency.toUpperCase();
}
