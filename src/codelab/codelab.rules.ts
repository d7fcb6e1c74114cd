import { allow, and, rule } from 'graphql-shield';
import { mayConverse } from '../ai';
import { mayStoreLearnerData } from '../consent';
import { learnerActive } from '../guardian';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';
import { isAuthenticated, isContentEditor, isSelf } from '../permissions/rules';
import type { User } from '../auth';

/** The submission named by `id` is the caller's: checked when submissionUpdated opens, and again per event by the resolver. */
const ownsSubmission = and(
  isAuthenticated,
  rule('ownsSubmission', { cache: 'no_cache' })(async (_parent, args: { id: string }, ctx: Context) => {
    try {
      await ctx.services.codelab.submission((await ctx.viewer()) as User, args.id);
      return true;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  }),
);

export const codelabRules = {
  Query: {
    codelabExercises: isAuthenticated,
    codelabExercise: isAuthenticated,
    codelabSubmission: isAuthenticated,
    mySubmissions: isAuthenticated,
  },
  Mutation: {
    runCode: learnerActive,
    createExercise: isContentEditor,
    updateExercise: isContentEditor,
    submitSolution: mayStoreLearnerData,
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
