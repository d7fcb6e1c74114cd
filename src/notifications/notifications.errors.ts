import { notFound, validationFailed } from '../kernel/errors';

/** The refusals of notifications and their settings (docs/errors.md). */

export const unknownNotification = () => notFound('notification');
export const noSettingGiven = () =>
  validationFailed([
    { field: 'input', message: 'Give disabledTypes, weeklyReport, monthlyReport or inactivityAlert.' },
  ]);
