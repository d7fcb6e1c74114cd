import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { type User, UserView } from '../auth';
import { closedCourses } from '../entitlements';
import type { NodeSource } from '../kernel/node';
import { codelabRules } from './codelab.rules';
import type { Context } from '../kernel/context';
import { PageArgs, toConnection } from '../kernel/pagination';
import type { Exercise, Submission } from './codelab.entity';
import { isStaff, SUBMISSION_UPDATED } from './codelab.service';
import {
  ExerciseArgs,
  ExerciseConnection,
  ExerciseInput,
  ExerciseView,
  HintView,
  RunCodeInput,
  RunResultView,
  SubmissionConnection,
  SubmissionView,
} from './codelab.types';

/** Learners see a hidden test's name only; content admins, who write the tests, see all of it. */
export function presentExercise(e: Exercise, staff: boolean): ExerciseView {
  return {
    id: e.id,
    title: e.title,
    prompt: e.prompt,
    language: e.language,
    starterCode: e.starterCode,
    difficulty: e.difficulty,
    courseId: e.courseId,
    lessonId: e.lessonId,
    tests: e.tests.map((t) =>
      t.hidden && !staff
        ? { name: t.name, hidden: true, input: null, expected: null, call: null }
        : { name: t.name, hidden: t.hidden, input: t.input, expected: t.expected, call: t.call ?? null },
    ),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/**
 * A submission as its owner sees it. Until its verdict is released (at a moment fixed when it was
 * submitted) it shows nothing of judging, not even whether judging started: it is `running`.
 */
export function presentSubmission(s: Submission): SubmissionView {
  const base = { id: s.id, exerciseId: s.exercise.id, createdAt: s.createdAt };
  if (s.status !== 'completed')
    return { ...base, status: 'running', verdict: null, score: 0, tests: [], finishedAt: null };
  return {
    ...base,
    status: s.status,
    verdict: s.verdict,
    score: s.score,
    // Submissions judged before hidden tests kept their kind and time to themselves still hold them.
    tests: s.results.map((r) =>
      r.hidden ? { name: r.name, hidden: true, passed: r.passed, message: null, timeMs: null } : r,
    ),
    finishedAt: s.finishedAt,
  };
}

const me = async (ctx: Context) => (await ctx.viewer()) as User;

/** An account's exercise submissions: only the account itself reads them here. */
@Resolver(() => UserView)
export class CodeLabUserEdges {
  @FieldResolver(() => SubmissionConnection, {
    nullable: true,
    description: "The account's exercise submissions, newest first (the account itself)",
  })
  async submissions(@Root() user: User, @Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.codelab.mySubmissions(user, args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentSubmission) });
  }
}

export const codelabNodes: NodeSource[] = [
  {
    type: 'Exercise',
    table: 'codelab_exercises',
    rule: codelabRules.Query.codelabExercise,
    field: 'Query.codelabExercise',
    loadMany: async (ctx, ids) => {
      const staff = isStaff(await me(ctx));
      return (await ctx.services.codelab.exercisesByIds(ids)).map((e) => presentExercise(e, staff));
    },
  },
  {
    type: 'Submission',
    table: 'codelab_submissions',
    rule: codelabRules.Query.codelabSubmission,
    field: 'Query.codelabSubmission',
    loadMany: async (ctx, ids) =>
      (await ctx.services.codelab.submissionsByIds(await me(ctx), ids)).map(presentSubmission),
  },
];

@Resolver()
export class CodeLabResolver {
  @Mutation(() => RunResultView, {
    description: 'Runs a program with the limits of CodeLab (per-user runs a minute: CODELAB_RUNS_PER_MINUTE)',
  })
  async runCode(
    @Arg('input', () => RunCodeInput, { description: 'The program to run' }) input: RunCodeInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.codelab.run(await me(ctx), input);
  }

  @Query(() => ExerciseConnection, { description: 'Exercises, newest first' })
  async codelabExercises(@Args(() => ExerciseArgs) args: ExerciseArgs, @Ctx() ctx: Context) {
    const staff = isStaff(await me(ctx));
    const closed = await closedCourses(ctx, await ctx.services.codelab.exerciseCourseIds());
    const page = await ctx.services.codelab.exercises(args, args.first, args.after, closed);
    return toConnection({ ...page, nodes: page.nodes.map((e) => presentExercise(e, staff)) });
  }

  @Query(() => ExerciseView, { description: 'One exercise by its id' })
  async codelabExercise(@Arg('id', () => ID, { description: 'The exercise to show' }) id: string, @Ctx() ctx: Context) {
    return presentExercise(await ctx.services.codelab.exercise(id), isStaff(await me(ctx)));
  }

  @Mutation(() => ExerciseView, { description: 'Content admins' })
  async createExercise(
    @Arg('input', () => ExerciseInput, { description: 'The new exercise and its tests' }) input: ExerciseInput,
    @Ctx() ctx: Context,
  ) {
    return presentExercise(await ctx.services.codelab.createExercise(input), true);
  }

  @Mutation(() => ExerciseView, { description: 'Content admins: replaces the exercise' })
  async updateExercise(
    @Arg('id', () => ID, { description: 'The exercise to replace' }) id: string,
    @Arg('input', () => ExerciseInput, { description: 'The exercise as it should be' }) input: ExerciseInput,
    @Ctx() ctx: Context,
  ) {
    return presentExercise(await ctx.services.codelab.updateExercise(id, input), true);
  }

  @Mutation(() => SubmissionView, {
    description:
      'Queues the code for judging; follow it with submissionUpdated, which tells when its verdict is released',
  })
  async submitSolution(
    @Arg('id', () => ID, { description: 'The exercise' }) id: string,
    @Arg('code', () => String, { description: 'The source code of the solution, at most 64 KiB' }) code: string,
    @Ctx() ctx: Context,
  ) {
    // Nothing has started yet: the one answer that says `queued`.
    return { ...presentSubmission(await ctx.services.codelab.submit(await me(ctx), id, code)), status: 'queued' };
  }

  @Query(() => SubmissionView, { description: "The caller's own submission" })
  async codelabSubmission(
    @Arg('id', () => ID, { description: 'The submission to show' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentSubmission(await ctx.services.codelab.submission(await me(ctx), id));
  }

  @Query(() => SubmissionConnection, { description: "The caller's submissions, newest first" })
  async mySubmissions(@Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.codelab.mySubmissions(await me(ctx), args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentSubmission) });
  }

  @Mutation(() => HintView, { description: 'A hint from the AI tutor (its consent, guardian switch and quota apply)' })
  async requestHint(@Arg('id', () => ID, { description: 'The submission' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.codelab.hint(await me(ctx), id, ctx.requestId);
  }

  @Subscription(() => SubmissionView, {
    description: 'The submission once its verdict is released (its owner only)',
    topics: SUBMISSION_UPDATED,
    topicId: ({ args }) => args.id,
  })
  async submissionUpdated(
    @Arg('id', () => ID, { description: 'The submission to follow' }) id: string,
    @Ctx() ctx: Context,
  ) {
    ctx.em.clear();
    return presentSubmission(await ctx.services.codelab.submission(await me(ctx), id));
  }
}
