import { AppError, conflict, forbidden, notFound, validationFailed } from '../kernel/errors';

/** The refusals of guardian links (DESIGN.md 4.2), in the words of the specification. */

export const unknownLink = () => notFound('guardian link');
export const unknownLearner = () => notFound('learner');
export const unknownAccount = () => notFound('account');
export const linkLimitReached = (max: number) => new AppError('limit_reached', `A guardian may have at most ${max} linked learners; revoke a link first.`);
export const ownAddressAsLearner = () => validationFailed([{ field: 'learnerEmail', message: 'must not be your own address' }]);
export const invalidLinkToken = () => validationFailed([{ field: 'token', message: 'The token is invalid or used.' }]);
export const learnerNotSignedUp = () => validationFailed([{ field: 'token', message: 'Sign up as a learner with this e-mail address first, then follow the link again.' }]);
export const learnerEmailNotVerified = () => new AppError('email_not_verified', "The learner's account must verify its e-mail address first; then follow this link again.");
export const onlyPendingLinkApproved = (status: string) => conflict(`The link is ${status}; only a pending link can be approved.`);
export const linkAlreadyRevoked = () => conflict('The link is revoked already.');
export const linkExists = () => conflict('You have a link to this learner already.');
export const alreadyLinked = () => conflict('This guardian is linked to this learner already.');
export const onlyLearnerOrAdminApproves = () => forbidden('Only the learner or an admin approves a link.');
export const learnerTooYoungToRevoke = (minAge: number) => forbidden(`Learners end a guardian's link themselves from age ${minAge}; ask an admin for help.`);
export const onlySelfOrGuardians = () => forbidden("Only the account and the learner's active guardians see this.");
export const onlyLinkGuardian = () => forbidden("Only the link's guardian walks to the learner's account.");
export const guardianRequired = () => new AppError('guardian_required', 'A verified guardian must link to your account first.');
