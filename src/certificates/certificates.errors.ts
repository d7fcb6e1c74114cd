import { notFound } from '../kernel/errors';

/** The refusals of certificates (DESIGN.md 4.2). */

export const unknownCertificate = () => notFound('certificate');
