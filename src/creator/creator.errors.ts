import { AppError, conflict, forbidden, notFound, validationFailed } from '../kernel/errors';

/** The refusals of the creator studio (DESIGN.md 4.2), in the words of the specification. */

export const unknownCourse = () => notFound('course');
export const unknownLesson = () => notFound('lesson');
export const onlyCourseCreator = () => forbidden("Only the course's creator may do this.");
export const lessonLimitReached = () => conflict('A course has at most 30 lessons.');
export const onlyPublishedCourseHasLearners = () => conflict('Only a published course has learners to write to.');
export const courseNotEditable = (status: string) => conflict(`The course is ${status}; it can no longer be edited.`);
export const courseNotInReview = (status: string) => conflict(`The course is ${status}, not in review.`);
export const noLessonsYet = () => validationFailed([{ field: 'lessons', message: 'add at least one lesson first' }]);
export const invalidAges = () => validationFailed([{ field: 'minAge', message: 'ages must satisfy 5 <= minAge <= maxAge <= 18' }]);
export const invalidAnswerIndex = (question: number) => validationFailed([{ field: `quiz.${question}.answerIndex`, message: 'must name one of at least two options' }]);
export const rejectionReasonMissing = () => validationFailed([{ field: 'reason', message: 'say why the course is rejected' }]);

// What the assistant is asked for (creator.assist.ts).
export const lessonOrPromptMissing = () => validationFailed([{ field: 'lessonId', message: 'name a lesson or give a prompt' }]);
export const unknownTargetLanguage = () => validationFailed([{ field: 'prompt', message: 'the language to translate into: en or vi' }]);
export const nothingToTranslate = (field: 'lessonId' | 'task', from: string) => validationFailed([{ field, message: `nothing in ${from} to translate` }]);
export const unknownAssistTask = () => validationFailed([{ field: 'task', message: 'must be one of outline, lesson, quiz, translate, review' }]);
/** The provider unreachable or timed out is upstream_unavailable; any other failure of it, upstream_error. */
export const providerFailed = (unreachable: boolean) => new AppError(unreachable ? 'upstream_unavailable' : 'upstream_error', 'The model provider could not help just now. Try again later.');
