import { notFound, reasons, validationFailed } from '../kernel/errors';

/** The refusals of lessons, quizzes and progress (docs/errors.md), in the words of the specification. */

const reason = reasons('progress', {
  not_enrolled: 'forbidden',
  quiz_attempt_limit_reached: 'limit_reached',
});

export const unknownQuiz = () => notFound('quiz');
export const unknownEnrollment = () => notFound('enrollment');
export const notEnrolled = () => reason.not_enrolled('Enroll in the course first.');
export const wrongAnswerCount = (questions: number) =>
  validationFailed([{ field: 'answers', message: `must give one answer for each of the ${questions} questions` }]);
export const quizAttemptsUsedUp = (limit: number) =>
  reason.quiz_attempt_limit_reached(`A quiz may be attempted at most ${limit} times.`);
