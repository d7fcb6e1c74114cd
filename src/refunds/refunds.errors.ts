import { notFound, reasons, validationFailed } from '../kernel/errors';

// The refunds area's refusals, each with its code (and so its status, docs/errors.md) and message.
// A payment the caller may not refund is the payments area's `paymentNotFound`.

const reason = reasons('refunds', {
  payment_not_refundable: 'conflict',
  refund_window_passed: 'conflict',
  refund_exceeds_remaining: 'conflict',
  refund_decided: 'conflict',
});

export const refundReasonMissing = () =>
  validationFailed([{ field: 'reason', message: 'say why, in at most 1000 characters' }]);
export const refundAmountInvalid = () =>
  validationFailed([{ field: 'amount', message: 'must be a positive whole number of minor units' }]);
export const paymentNotRefundable = (status: string) =>
  reason.payment_not_refundable(`A ${status} payment cannot be refunded.`);
export const refundWindowPassed = (days: number) =>
  reason.refund_window_passed(`Refunds are self-service for ${days} days after payment; ask support.`);
export const refundTooLarge = (left: number, currency: string) =>
  reason.refund_exceeds_remaining(`At most ${left} ${currency} of this payment can still be refunded.`);
export const refundNotFound = () => notFound('refund');
export const refundDecided = (status: string) => reason.refund_decided(`The refund is ${status} already.`);
