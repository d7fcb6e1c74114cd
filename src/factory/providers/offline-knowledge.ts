import { ADVANCED } from './concepts/advanced';
import { BEGINNER } from './concepts/beginner';
import { t } from './concepts/concept';
import { INTERMEDIATE } from './concepts/intermediate';

export type { Concept, ConceptQuestion } from './concepts/concept';

/** In teaching order: a beginner course starts at the top, later levels further down. */
export const CONCEPTS = [...BEGINNER, ...INTERMEDIATE, ...ADVANCED];

/** Where each level starts in the teaching order. */
export const LEVEL_START = {
  beginner: 0,
  intermediate: BEGINNER.length,
  advanced: BEGINNER.length + INTERMEDIATE.length,
} as const;

export const LEVEL_NAME = {
  beginner: t('beginner', 'cơ bản'),
  intermediate: t('intermediate', 'trung cấp'),
  advanced: t('advanced', 'nâng cao'),
} as const;
