import { forbidden } from '../kernel/errors';

/** The refusals of the guardians' reports (DESIGN.md 4.2). */

export const invalidUnsubscribeLink = () => forbidden('This unsubscribe link is not valid.');
