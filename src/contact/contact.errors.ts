import { conflict, notFound } from '../kernel/errors';

/** The refusals of the contact form's inbox (DESIGN.md 4.2), in the words of the specification. */

export const unknownMessage = () => notFound('message');
export const messageAlreadyResolved = () => conflict('This message is resolved already.');
