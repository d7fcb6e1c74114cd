import { residencyRegion } from '../db/regions';

export type Region = 'EU' | 'US' | 'VN' | 'OTHER';

/** What a country's law asks of consent for children's data (docs/domain.md). */
export interface PolicyValues {
  region: Region;
  /** Under this age, a guardian consents to basic data processing. */
  guardianConsentAge: number;
  /** From this age the child's own consent is needed beside the guardian's; null where not asked. */
  childConsentAge: number | null;
  /** Under this age, a guardian consents to AI conversation, AI memory and progress sharing. */
  aiGuardianConsentAge: number;
  /** Where the learner's data must be kept; null where the law does not say. */
  dataResidency: string | null;
  rules: string[];
}

export const POLICY_VERSION_OF_DEFAULTS = 1;

export const EU_MEMBER_STATES = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

const AI_RULE = 'A guardian consents to AI conversation, AI memory and progress sharing for learners under 18.';

export function defaultPolicy(country: string): PolicyValues {
  if (EU_MEMBER_STATES.has(country)) {
    return {
      region: 'EU',
      guardianConsentAge: 16,
      childConsentAge: null,
      aiGuardianConsentAge: 18,
      dataResidency: null,
      rules: ['GDPR art. 8: a guardian consents to data processing for children under 16.', AI_RULE],
    };
  }
  if (country === 'US') {
    return {
      region: 'US',
      guardianConsentAge: 13,
      childConsentAge: null,
      aiGuardianConsentAge: 18,
      dataResidency: null,
      rules: ['COPPA: verifiable guardian consent for children under 13.', AI_RULE],
    };
  }
  if (country === 'VN') {
    return {
      region: 'VN',
      guardianConsentAge: 16,
      childConsentAge: 7,
      aiGuardianConsentAge: 18,
      dataResidency: 'VN',
      rules: [
        "Decree 13/2023 and Law 91/2025: a guardian consents for children under 16, and the child's own consent is needed too from age 7.",
        'Personal data of learners in Viet Nam is kept in Viet Nam.',
        AI_RULE,
      ],
    };
  }
  return {
    region: 'OTHER',
    guardianConsentAge: 16,
    childConsentAge: null,
    aiGuardianConsentAge: 18,
    dataResidency: null,
    rules: ['A guardian consents to data processing for children under 16.', AI_RULE],
  };
}

/** A country of each kind of policy above. */
const ONE_COUNTRY_OF_EACH_POLICY = ['DE', 'US', 'VN', 'ZZ'];

/** The regions whose law keeps personal data in the country (`vn`): each has a database of its own. */
export const residencyRegions = (): string[] => [
  ...new Set(
    ONE_COUNTRY_OF_EACH_POLICY.flatMap((country) => residencyRegion(defaultPolicy(country).dataResidency) ?? []),
  ),
];
