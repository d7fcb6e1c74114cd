import { notFound, reasons, validationFailed } from '../kernel/errors';

/** The refusals of the catalogue and enrollments (docs/errors.md), in the words of the specification. */

const reason = reasons('courses', {
  course_has_no_lessons: 'conflict',
  already_enrolled: 'conflict',
});

export const unknownCourse = () => notFound('course');
export const unknownLesson = () => notFound('lesson');
export const unknownEnrollment = () => notFound('enrollment');
export const publishWithoutLessons = () =>
  reason.course_has_no_lessons('A course needs at least one lesson to be published.');
export const alreadyEnrolled = () => reason.already_enrolled('You are enrolled in this course already.');
export const invalidAnswerIndex = (lesson: number, question: number) =>
  validationFailed([
    {
      field: `lessons.${lesson}.quiz.questions.${question}.answerIndex`,
      message: 'must name one of at least two options',
    },
  ]);
