import { conflict, notFound, validationFailed } from '../kernel/errors';

/** The refusals of the catalogue and enrollments (DESIGN.md 4.2), in the words of the specification. */

export const unknownCourse = () => notFound('course');
export const unknownLesson = () => notFound('lesson');
export const unknownEnrollment = () => notFound('enrollment');
export const publishWithoutLessons = () => conflict('A course needs at least one lesson to be published.');
export const alreadyEnrolled = () => conflict('You are enrolled in this course already.');
export const invalidAnswerIndex = (lesson: number, question: number) =>
  validationFailed([{ field: `lessons.${lesson}.quiz.questions.${question}.answerIndex`, message: 'must name one of at least two options' }]);
