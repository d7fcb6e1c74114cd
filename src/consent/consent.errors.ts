import { AppError, forbidden, notFound } from '../kernel/errors';
import type { ConsentType } from './consent.entity';

/** The refusals of consents (DESIGN.md 4.2, 4.4), in the words of the specification. */

export const consentRequired = (type: ConsentType) => new AppError('consent_required', `This needs the ${type} consent; grant it first.`);
export const guardianConsentRequired = (type: ConsentType) => new AppError('guardian_consent_required', `This needs the ${type} consent of a linked guardian; your guardian has been asked.`);
export const learnerDecidesConsent = () => forbidden('The learner decides this consent themselves at their age.');
export const unknownUser = () => notFound('user');
export const unknownLearner = () => notFound('learner');
