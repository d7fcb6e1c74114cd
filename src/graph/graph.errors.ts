import { notFound } from '../kernel/errors';

/** The refusals of the node interface (docs/errors.md). */

export const unknownNode = () => notFound('node');
