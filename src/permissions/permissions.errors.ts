import { AppError, reasons } from '../kernel/errors';
import type { Tier } from '../kernel/domain';

/** The refusals of the shared rules (docs/errors.md), in the words of the specification. */

const reason = reasons('permissions', {
  account_gone: 'unauthenticated',
  not_the_account: 'forbidden',
});

export const deletionPending = () =>
  new AppError(
    'account_deletion_pending',
    'This account is scheduled for erasure: until then it may only be read, and the erasure canceled.',
  );
export const accountGone = () => reason.account_gone('This account no longer exists.');
export const onlyTheAccount = () => reason.not_the_account('Only the account itself sees this.');
export const tierRequired = (tier: Tier) =>
  new AppError('tier_required', `This comes with the ${tier} tier and above.`);
export const emailNotVerified = () => new AppError('email_not_verified', 'Verify your e-mail address first.');
