import { AppError, forbidden, notFound } from '../kernel/errors';
import type { ConsentType } from './consent.entity';

/** The refusals of consents (DESIGN.md 4.2, 4.4), in the words of the specification. */

export const consentRequired = (type: ConsentType) => new AppError('consent_required', `This needs the ${type} consent; grant it first.`);

/** Where a learner's guardians stand on a consent they must give: asked (now, or before while their notice is unread), linked but not asked, or none linked. */
export type GuardiansAsked = 'asked' | 'linked' | 'none';

// What is true for the learner, and what they can do next.
const guardianStep: Record<GuardiansAsked, string> = {
  asked: 'your guardian has been asked to grant it.',
  linked: 'your guardian has not granted it yet. Ask for it by granting this consent from your account, and they are notified.',
  none: 'no guardian is linked to your account, so nobody was asked. Ask a parent or guardian to sign up as a guardian and link to your account, approve their link, and they can then grant it.',
};

export const guardianConsentRequired = (type: ConsentType, guardians: GuardiansAsked) =>
  new AppError('guardian_consent_required', `This needs the ${type} consent of a guardian: ${guardianStep[guardians]}`);
export const learnerDecidesConsent = () => forbidden('The learner decides this consent themselves at their age.');
export const unknownUser = () => notFound('user');
export const unknownLearner = () => notFound('learner');
