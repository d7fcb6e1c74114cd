import { validationFailed } from '../kernel/errors';

/** The refusals of country policies (docs/errors.md). */

export const invalidCountry = () =>
  validationFailed([
    { field: 'country', message: 'must be an ISO 3166-1 alpha-2 country code such as VN (two capital letters)' },
  ]);
export const requiredValuesNull = (fields: string[]) =>
  validationFailed(fields.map((field) => ({ field, message: 'must not be null' })));
export const childAgeNotBelowGuardianAge = () =>
  validationFailed([{ field: 'childConsentAge', message: 'must be below guardianConsentAge' }]);
