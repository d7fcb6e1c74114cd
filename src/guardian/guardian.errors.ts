import { AppError, notFound, reasons, validationFailed } from '../kernel/errors';

/** The refusals of guardian links (docs/errors.md), in the words of the specification. */

const reason = reasons('guardian', {
  guardian_link_limit_reached: 'limit_reached',
  learner_email_not_verified: 'email_not_verified',
  link_not_pending: 'conflict',
  link_already_revoked: 'conflict',
  link_exists: 'conflict',
  guardian_already_linked: 'conflict',
  not_link_approver: 'forbidden',
  learner_too_young_to_revoke: 'forbidden',
  not_self_or_guardian: 'forbidden',
  not_link_guardian: 'forbidden',
  learner_not_signed_up: 'validation_failed',
  region_mismatch: 'conflict',
});

export const unknownLink = () => notFound('guardian link');
export const unknownLearner = () => notFound('learner');
export const unknownAccount = () => notFound('account');
export const linkLimitReached = (max: number) =>
  reason.guardian_link_limit_reached(`A guardian may have at most ${max} linked learners; revoke a link first.`);
export const ownAddressAsLearner = () =>
  validationFailed([{ field: 'learnerEmail', message: 'must not be your own address' }]);
export const invalidLinkToken = () => validationFailed([{ field: 'token', message: 'The token is invalid or used.' }]);
// A link that is fine but early, told apart from a bad token (both of the field `token`): the page says what to do.
export const learnerNotSignedUp = () =>
  reason.learner_not_signed_up('The request is invalid.', {
    details: [
      { field: 'token', message: 'Sign up as a learner with this e-mail address first, then follow the link again.' },
    ],
  });
export const learnerEmailNotVerified = () =>
  reason.learner_email_not_verified(
    "The learner's account must verify its e-mail address first; then follow this link again.",
  );
export const onlyPendingLinkApproved = (status: string) =>
  reason.link_not_pending(`The link is ${status}; only a pending link can be approved.`);
export const linkAlreadyRevoked = () => reason.link_already_revoked('The link is revoked already.');
export const linkExists = () => reason.link_exists('You have a link to this learner already.');
export const alreadyLinked = () => reason.guardian_already_linked('This guardian is linked to this learner already.');
export const onlyLearnerOrAdminApproves = () =>
  reason.not_link_approver('Only the learner or an admin approves a link.');
export const learnerTooYoungToRevoke = (minAge: number) =>
  reason.learner_too_young_to_revoke(
    `Learners end a guardian's link themselves from age ${minAge}; ask an admin for help.`,
  );
export const onlySelfOrGuardians = () =>
  reason.not_self_or_guardian("Only the account and the learner's active guardians see this.");
export const onlyLinkGuardian = () =>
  reason.not_link_guardian("Only the link's guardian walks to the learner's account.");
// A family lives in one region: the learner's personal data must stay where the learner's law keeps it.
export const regionMismatch = () =>
  reason.region_mismatch(
    "The guardian's account and the learner's are kept in different regions: make the guardian's account in the learner's country.",
  );
export const guardianRequired = () =>
  new AppError('guardian_required', 'A verified guardian must link to your account first.');
