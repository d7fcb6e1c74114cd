import { type FieldError, notFound, reasons, validationFailed } from '../kernel/errors';

// The entitlements area's refusals, each with its code (and so its status, docs/errors.md) and message.

const reason = reasons('entitlements', {
  entitlement_not_active: 'conflict',
  course_not_bought: 'forbidden',
});

/** A grant that names no tier, no course or an end in the past. */
export const grantInvalid = (details: FieldError[]) => validationFailed(details);
export const grantedUserNotFound = () => notFound('user');
export const entitlementNotFound = () => notFound('entitlement');
/** Revoking what is no longer active. */
export const entitlementNotActive = (status: string) =>
  reason.entitlement_not_active(`The entitlement is ${status} already.`);
/** A paid course opened without an entitlement (docs/commerce.md). */
export const courseNotBought = () =>
  reason.course_not_bought('This course is sold: it opens once bought (a learner under 18 asks a guardian to buy it).');
