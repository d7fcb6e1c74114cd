import { reasons } from '../kernel/errors';

/** The refusals of the guardians' reports (docs/errors.md). */

const reason = reasons('guardian-reports', {
  invalid_unsubscribe_link: 'forbidden',
});

export const invalidUnsubscribeLink = () => reason.invalid_unsubscribe_link('This unsubscribe link is not valid.');
