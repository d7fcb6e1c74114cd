import { AppError, validationFailed } from './errors';

/** Refusals of HTTP itself, answered before any operation runs; the OpenAPI description shows them too. */
export const methodNotAllowed = () =>
  new AppError('method_not_allowed', 'This path does not take this method; the Allow header lists those it takes.');
export const badPercentEncoding = (field: string) =>
  validationFailed([{ field, message: 'is not valid percent-encoded UTF-8' }]);
