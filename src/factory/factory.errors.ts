import { AppError, conflict, notFound } from '../kernel/errors';

/** The refusals of the course factory (DESIGN.md 4.2), in the words of the specification. */

export const unknownGeneration = () => notFound('generation');
export const tooManyActiveGenerations = (limit: number) => new AppError('limit_reached', `At most ${limit} of your generations may be queued or running at once; wait for one to finish.`);
export const generationAlreadyApproved = (courseId: string | null) => conflict(`This generation is already approved; its course is ${courseId}.`);
export const generationNotAwaitingApproval = (status: string) => conflict(`Only a generation awaiting approval can be approved; this one is ${status}.`);
export const noLessonFlagged = () => conflict('No lesson is flagged: the course-level findings need a new generation.');
export const generationCannotBecome = (status: string, to: string) => conflict(`A generation that is ${status} cannot become ${to}.`);
