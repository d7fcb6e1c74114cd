import { notFound } from '../kernel/errors';

/** The refusals of certificates (docs/errors.md). */

export const unknownCertificate = () => notFound('certificate');
