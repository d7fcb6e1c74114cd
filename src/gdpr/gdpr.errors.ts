import { notFound, reasons } from '../kernel/errors';

/** The refusals of privacy requests (docs/errors.md, docs/domain.md#privacy-operations), in the words of the specification. */

const reason = reasons('gdpr', {
  not_active_guardian: 'forbidden',
  wrong_password: 'forbidden',
  export_already_running: 'conflict',
  erasure_already_scheduled: 'conflict',
  erasure_not_cancelable: 'conflict',
  invalid_download_link: 'forbidden',
  download_link_expired: 'forbidden',
});

export const unknownAccount = () => notFound('account');
export const unknownRequest = () => notFound('request');
export const unknownExport = () => notFound('export');
export const onlyActiveGuardianAsks = () =>
  reason.not_active_guardian('Only a linked guardian with an active link may ask this for a learner.');
export const wrongPassword = () => reason.wrong_password('The password is wrong.');
export const exportAlreadyRunning = () =>
  reason.export_already_running('An export of this account is already being prepared.');
export const erasureAlreadyScheduled = () =>
  reason.erasure_already_scheduled('This account is already scheduled for erasure.');
export const onlyScheduledErasureCancels = () =>
  reason.erasure_not_cancelable('Only an erasure still in its grace period can be canceled.');
export const invalidDownloadLink = () => reason.invalid_download_link('This download link is not valid.');
export const expiredDownloadLink = () =>
  reason.download_link_expired('This download link has expired; ask for a new export.');
