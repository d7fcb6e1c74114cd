import { allow, and, rule } from 'graphql-shield';
import { mayConverse } from '../ai';
import { mayStoreLearnerData } from '../consent';
import { courseOpen, paidCourseCheck } from '../entitlements';
import { learnerActive } from '../guardian';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import { aboutCallerAnd, isAuthenticated, isContentEditor, isSelf, refusalOf } from '../permissions/rules';
import type { User } from '../auth';

/** The submission named by `id` is the caller's: checked when submissionUpdated opens, and again per event by the resolver. */
const ownsSubmission = and(
  isAuthenticated,
  rule('ownsSubmission', { cache: 'no_cache' })(async (_parent, args: { id: string }, ctx: Context) =>
    refusalOf(async () => ctx.services.codelab.submission((await ctx.viewer()) as User, args.id)),
  ),
);

/**
 * An exercise of a paid course opens as its course does (docs/commerce.md): 403 course_not_bought
 * until bought. An unknown exercise passes, for the resolver to answer 404.
 */
const exerciseOpen = aboutCallerAnd(
  ['id'],
  rule('exerciseOpen', { cache: 'no_cache' })(async (_parent, args: { id?: unknown }, ctx: Context) => {
    if (typeof args.id !== 'string') return true;
    const exercise = await ctx.services.codelab.exercise(args.id).catch((error: unknown) => {
      if (error instanceof AppError) return null;
      throw error;
    });
    return paidCourseCheck(ctx, exercise?.courseId ?? null);
  }),
);

export const codelabRules = {
  Query: {
    codelabExercises: and(isAuthenticated, courseOpen('courseId')),
    codelabExercise: and(isAuthenticated, exerciseOpen),
    codelabSubmission: isAuthenticated,
    mySubmissions: isAuthenticated,
  },
  Mutation: {
    runCode: learnerActive,
    createExercise: isContentEditor,
    updateExercise: isContentEditor,
    submitSolution: and(mayStoreLearnerData, exerciseOpen),
    requestHint: mayConverse,
  },
  Subscription: { submissionUpdated: ownsSubmission },
  CodeRunResult: allow,
  Exercise: allow,
  ExerciseTest: allow,
  ExerciseConnection: allow,
  ExerciseEdge: allow,
  Submission: allow,
  SubmissionTestResult: allow,
  SubmissionConnection: allow,
  SubmissionHint: allow,
  SubmissionEdge: allow,
  User: { submissions: isSelf },
};
