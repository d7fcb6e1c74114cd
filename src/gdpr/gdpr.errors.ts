import { conflict, forbidden, notFound } from '../kernel/errors';

/** The refusals of privacy requests (DESIGN.md 4.2, 4.7), in the words of the specification. */

export const unknownAccount = () => notFound('account');
export const unknownRequest = () => notFound('request');
export const unknownExport = () => notFound('export');
export const onlyActiveGuardianAsks = () => forbidden('Only a linked guardian with an active link may ask this for a learner.');
export const wrongPassword = () => forbidden('The password is wrong.');
export const exportAlreadyRunning = () => conflict('An export of this account is already being prepared.');
export const erasureAlreadyScheduled = () => conflict('This account is already scheduled for erasure.');
export const onlyScheduledErasureCancels = () => conflict('Only an erasure still in its grace period can be canceled.');
export const invalidDownloadLink = () => forbidden('This download link is not valid.');
export const expiredDownloadLink = () => forbidden('This download link has expired; ask for a new export.');
