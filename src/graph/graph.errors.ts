import { notFound } from '../kernel/errors';

/** The refusals of the node interface (DESIGN.md 4.2). */

export const unknownNode = () => notFound('node');
