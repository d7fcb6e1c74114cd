import { conflict, notFound } from '../kernel/errors';

/** The refusals of account administration (DESIGN.md 4.2), in the words of the specification. */

export const unknownUser = () => notFound('user');
export const cannotSuspendSelf = () => conflict('You cannot suspend your own account.');
export const alreadySuspended = () => conflict('This account is suspended already.');
export const notSuspended = () => conflict('This account is not suspended.');
export const lastAdmin = () => conflict('This is the last admin; grant the role to somebody else first.');
