import { notFound, reasons, validationFailed } from '../kernel/errors';

// The payments area's refusals, each with its code (and so its status, docs/errors.md) and message.

const reason = reasons('payments', {
  idempotency_key_reused: 'conflict',
  idempotency_key_under_way: 'conflict',
  checkout_not_accepted: 'upstream_error',
  webhook_not_completed: 'upstream_error',
  purchase_request_decided: 'conflict',
});

export const providerNotOffered = (chosen: string, offered: string[]) =>
  validationFailed([{ field: 'provider', message: `${chosen} is not offered; choose one of ${offered.join(', ')}` }]);
export const providerCurrency = (provider: string, currencies: string[], currency: string) =>
  validationFailed([{ field: 'provider', message: `${provider} takes ${currencies.join(', ')}, not ${currency}` }]);
export const badIdempotencyKey = () =>
  validationFailed([{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }]);
/** A return address off the web app's and the app's origins: the provider or the sandbox page would send the payer's browser there. */
export const badReturnUrl = (origins: string[]) =>
  validationFailed([{ field: 'returnUrl', message: `must be an address on ${origins.join(' or ')}` }]);
export const idempotencyKeyReused = () =>
  reason.idempotency_key_reused('This Idempotency-Key was used with another request.');
export const idempotencyKeyUnderWay = () =>
  reason.idempotency_key_under_way('A request with this Idempotency-Key is still under way.');
export const productNotForSale = () => notFound('product');
export const notAPriceOfProduct = () =>
  validationFailed([{ field: 'priceId', message: 'is not a price of this product' }]);
export const learnerNotFound = () => notFound('learner');
/** The provider refused or failed to start a checkout: nothing was paid. */
export const checkoutNotAccepted = (provider: string) =>
  reason.checkout_not_accepted(`${provider} did not accept the checkout; try again or choose another provider.`);
export const paymentNotFound = () => notFound('payment');
export const providerNotFound = () => notFound('payment provider');
/** The provider did not confirm a webhook's event: nothing was stored, so the provider sends it again. */
export const webhookNotCompleted = (provider: string) =>
  reason.webhook_not_completed(`${provider} did not answer; the event was not stored and can be sent again.`);
export const purchaseRequestNotFound = () => notFound('purchase request');
export const purchaseRequestDecided = (status: string) =>
  reason.purchase_request_decided(`The request is ${status} already.`);
