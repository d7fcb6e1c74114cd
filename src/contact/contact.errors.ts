import { notFound, reasons } from '../kernel/errors';

/** The refusals of the contact form's inbox (docs/errors.md), in the words of the specification. */

const reason = reasons('contact', {
  message_already_resolved: 'conflict',
});

export const unknownMessage = () => notFound('message');
export const messageAlreadyResolved = () => reason.message_already_resolved('This message is resolved already.');
