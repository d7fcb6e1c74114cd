import { type FieldError, notFound, reasons, validationFailed } from '../kernel/errors';

// The catalog's refusals, each with its code (and so its status, docs/errors.md) and message.

const reason = reasons('catalog', {
  listing_published_by_review: 'conflict',
  listing_not_in_review: 'conflict',
  listing_names_others_courses: 'forbidden',
});

/** A product the viewer may not see is not found either, so that its existence says nothing. */
export const productNotFound = () => notFound('product');
export const listingNotFound = () => notFound('listing');
/** Prices, tier or courses of a product that do not hold together. */
export const productInvalid = (details: FieldError[]) => validationFailed(details);
export const listingPublishedByReview = () =>
  reason.listing_published_by_review('A listing is published by its review.');
export const listingNotInReview = (status: string) =>
  reason.listing_not_in_review(`The listing is ${status}, not in review.`);
export const rejectionNeedsReason = () => validationFailed([{ field: 'reason', message: 'say why it is rejected' }]);
export const listingOfTier = () =>
  validationFailed([{ field: 'kind', message: 'creators list courses and bundles; tiers are the platform’s' }]);
export const notAMarketplaceCursor = () =>
  validationFailed([{ field: 'after', message: 'is not a cursor of this list' }]);
export const notACurrency = () => validationFailed([{ field: 'currency', message: 'must be an ISO 4217 code' }]);
export const pricesNeedCurrency = () =>
  validationFailed([{ field: 'currency', message: 'prices are compared in one currency: give currency' }]);
export const listsOthersCourses = () =>
  reason.listing_names_others_courses('A listing names only courses you created.');
