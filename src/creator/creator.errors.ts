import { notFound, reasons, validationFailed } from '../kernel/errors';

/** The refusals of the creator studio (docs/errors.md), in the words of the specification. */

const reason = reasons('creator', {
  not_course_creator: 'forbidden',
  course_lesson_limit_reached: 'conflict',
  course_not_published: 'conflict',
  course_not_editable: 'conflict',
  course_not_in_review: 'conflict',
  model_provider_unreachable: 'upstream_unavailable',
  model_provider_failed: 'upstream_error',
});

export const unknownCourse = () => notFound('course');
export const unknownLesson = () => notFound('lesson');
export const onlyCourseCreator = () => reason.not_course_creator("Only the course's creator may do this.");
export const lessonLimitReached = () => reason.course_lesson_limit_reached('A course has at most 30 lessons.');
export const onlyPublishedCourseHasLearners = () =>
  reason.course_not_published('Only a published course has learners to write to.');
export const courseNotEditable = (status: string) =>
  reason.course_not_editable(`The course is ${status}; it can no longer be edited.`);
export const courseNotInReview = (status: string) =>
  reason.course_not_in_review(`The course is ${status}, not in review.`);
export const noLessonsYet = () => validationFailed([{ field: 'lessons', message: 'add at least one lesson first' }]);
export const invalidAges = () =>
  validationFailed([{ field: 'minAge', message: 'ages must satisfy 5 <= minAge <= maxAge <= 18' }]);
export const invalidAnswerIndex = (question: number) =>
  validationFailed([{ field: `quiz.${question}.answerIndex`, message: 'must name one of at least two options' }]);
export const rejectionReasonMissing = () =>
  validationFailed([{ field: 'reason', message: 'say why the course is rejected' }]);

// What the assistant is asked for (creator.assist.ts).
export const lessonOrPromptMissing = () =>
  validationFailed([{ field: 'lessonId', message: 'name a lesson or give a prompt' }]);
export const unknownTargetLanguage = () =>
  validationFailed([{ field: 'prompt', message: 'the language to translate into: en or vi' }]);
export const nothingToTranslate = (field: 'lessonId' | 'task', from: string) =>
  validationFailed([{ field, message: `nothing in ${from} to translate` }]);
export const unknownAssistTask = () =>
  validationFailed([{ field: 'task', message: 'must be one of outline, lesson, quiz, translate, review' }]);
/** The provider unreachable or timed out is upstream_unavailable; any other failure of it, upstream_error. */
export const providerFailed = (unreachable: boolean) =>
  (unreachable ? reason.model_provider_unreachable : reason.model_provider_failed)(
    'The model provider could not help just now. Try again later.',
  );
