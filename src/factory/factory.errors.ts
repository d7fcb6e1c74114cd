import { notFound, reasons } from '../kernel/errors';

/** The refusals of the course factory (docs/errors.md), in the words of the specification. */

const reason = reasons('factory', {
  active_generation_limit_reached: 'limit_reached',
  generation_already_approved: 'conflict',
  generation_not_awaiting_approval: 'conflict',
  no_lesson_flagged: 'conflict',
  generation_transition_not_allowed: 'conflict',
});

export const unknownGeneration = () => notFound('generation');
export const tooManyActiveGenerations = (limit: number) =>
  reason.active_generation_limit_reached(
    `At most ${limit} of your generations may be queued or running at once; wait for one to finish.`,
  );
export const generationAlreadyApproved = (courseId: string | null) =>
  reason.generation_already_approved(`This generation is already approved; its course is ${courseId}.`);
export const generationNotAwaitingApproval = (status: string) =>
  reason.generation_not_awaiting_approval(
    `Only a generation awaiting approval can be approved; this one is ${status}.`,
  );
export const noLessonFlagged = () =>
  reason.no_lesson_flagged('No lesson is flagged: the course-level findings need a new generation.');
export const generationCannotBecome = (status: string, to: string) =>
  reason.generation_transition_not_allowed(`A generation that is ${status} cannot become ${to}.`);
