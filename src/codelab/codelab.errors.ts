import { type FieldError, notFound, validationFailed } from '../kernel/errors';

/** The errors of CodeLab (docs/codelab.md), by what went wrong; codes and messages are the contract's. */

export const exerciseNotFound = () => notFound('exercise');
/** No such submission, or another learner's. */
export const submissionNotFound = () => notFound('submission');
export const solutionTooLarge = () => validationFailed([{ field: 'code', message: 'must be at most 64 KiB' }]);
/** A run the sandbox refuses before it starts (language, code or stdin out of bounds), field by field. */
export const invalidRunRequest = (details: FieldError[]) => validationFailed(details);
