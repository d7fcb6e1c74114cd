import type { PolicyValues } from '../country-policy';
import { ConsentType } from './consent.entity';

/** Consents a guardian gives for learners under the policy's AI age (18). */
const UNDER_AI_AGE = new Set([ConsentType.ai_conversation, ConsentType.ai_memory, ConsentType.progress_sharing]);

export interface ConsentRequirement {
  /** A linked guardian must give it. */
  needsGuardian: boolean;
  /** The person must give it themselves (alone, or beside the guardian where the law asks both). */
  needsOwn: boolean;
}

/**
 * Who must consent, from the person's age on the day of the request and their country's policy.
 * `age` is undefined for accounts without a birth date (adults: guardians, creators, staff).
 */
export function consentRequirement(
  type: ConsentType,
  age: number | undefined,
  policy: PolicyValues,
): ConsentRequirement {
  if (age === undefined) return { needsGuardian: false, needsOwn: true };
  const guardianUntil =
    type === ConsentType.basic_data
      ? policy.guardianConsentAge
      : UNDER_AI_AGE.has(type)
        ? policy.aiGuardianConsentAge
        : 0;
  const needsGuardian = age < guardianUntil;
  const childAsked = policy.childConsentAge !== null && age >= policy.childConsentAge;
  return { needsGuardian, needsOwn: !needsGuardian || childAsked };
}

export function isGranted(
  requirement: ConsentRequirement,
  parts: { guardianGrantedAt: Date | null; ownGrantedAt: Date | null },
): boolean {
  return (
    (!requirement.needsGuardian || parts.guardianGrantedAt !== null) &&
    (!requirement.needsOwn || parts.ownGrantedAt !== null)
  );
}
