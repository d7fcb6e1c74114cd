import { AppError, validationFailed } from '../kernel/errors';

/** The refusals of feature flags (docs/errors.md). */

export const featureDisabled = () =>
  new AppError('feature_disabled', 'This feature is not available to you at the moment.');
export const invalidFlagKey = () =>
  validationFailed([{ field: 'key', message: 'must be 1 to 64 of a-z, 0-9, _ . - starting with a letter or digit' }]);
export const minAgeAboveMaxAge = (rule: number) =>
  validationFailed([{ field: `rules.${rule}.minAge`, message: 'must not be above maxAge' }]);
