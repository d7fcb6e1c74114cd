import { notFound, reasons } from '../kernel/errors';

/** The refusals of account administration (docs/errors.md), in the words of the specification. */

const reason = reasons('admin', {
  cannot_suspend_self: 'conflict',
  account_already_suspended: 'conflict',
  account_not_suspended: 'conflict',
  last_admin: 'conflict',
});

export const unknownUser = () => notFound('user');
export const cannotSuspendSelf = () => reason.cannot_suspend_self('You cannot suspend your own account.');
export const alreadySuspended = () => reason.account_already_suspended('This account is suspended already.');
export const notSuspended = () => reason.account_not_suspended('This account is not suspended.');
export const lastAdmin = () => reason.last_admin('This is the last admin; grant the role to somebody else first.');
