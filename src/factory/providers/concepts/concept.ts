import type { Localized } from '../../../kernel/localized';

export interface ConceptQuestion {
  prompt: Localized;
  answer: Localized;
  wrong: Localized[];
  explanation: Localized;
}

/** One idea of programming, as the offline generator teaches it, in both languages. */
export interface Concept {
  id: string;
  name: Localized;
  explanation: Localized;
  /** A picture from everyday life, for the youngest learners. */
  analogy: Localized;
  code: { python: string; javascript: string };
  exercise: Localized;
  questions: ConceptQuestion[];
}

/** A text in English and Vietnamese, the two languages every concept is taught in. */
export const t = (en: string, vi: string): Localized => ({ en, vi });
