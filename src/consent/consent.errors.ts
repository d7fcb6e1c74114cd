import { AppError, notFound, reasons } from '../kernel/errors';
import type { ConsentType } from './consent.entity';

/** The refusals of consents (docs/errors.md, docs/auth.md), in the words of the specification. */

const reason = reasons('consent', {
  learner_decides_consent: 'forbidden',
  guardian_asked: 'guardian_consent_required',
  guardian_not_asked: 'guardian_consent_required',
  no_guardian_linked: 'guardian_consent_required',
});

export const consentRequired = (type: ConsentType) =>
  new AppError('consent_required', `This needs the ${type} consent; grant it first.`);

/** Where a learner's guardians stand on a consent they must give: asked (now, or before while their notice is unread), linked but not asked, or none linked. */
export type GuardiansAsked = 'asked' | 'linked' | 'none';

// What is true for the learner, and what they can do next: the reason names the first, for a client
// that shows its own words.
const guardianStep = {
  asked: [reason.guardian_asked, 'your guardian has been asked to grant it.'],
  linked: [
    reason.guardian_not_asked,
    'your guardian has not granted it yet. Ask for it by granting this consent from your account, and they are notified.',
  ],
  none: [
    reason.no_guardian_linked,
    'no guardian is linked to your account, so nobody was asked. Ask a parent or guardian to sign up as a guardian and link to your account, approve their link, and they can then grant it.',
  ],
} as const satisfies Record<GuardiansAsked, readonly [(message: string) => AppError, string]>;

export const guardianConsentRequired = (type: ConsentType, guardians: GuardiansAsked) => {
  const [refusal, step] = guardianStep[guardians];
  return refusal(`This needs the ${type} consent of a guardian: ${step}`);
};
export const learnerDecidesConsent = () =>
  reason.learner_decides_consent('The learner decides this consent themselves at their age.');
export const unknownUser = () => notFound('user');
export const unknownLearner = () => notFound('learner');
