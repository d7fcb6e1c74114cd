import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { NodeSource } from '../kernel/node';
import { codelabRules } from './codelab.rules';
import type { Context } from '../kernel/context';
import { PageArgs, toConnection } from '../kernel/pagination';
import type { Exercise, Portfolio, Project, Submission } from './codelab.entity';
import { isStaff, SUBMISSION_UPDATED } from './codelab.service';
import {
  ExerciseArgs,
  ExerciseConnection,
  ExerciseInput,
  ExerciseView,
  HintView,
  PortfolioInput,
  PortfolioView,
  ProjectConnection,
  ProjectInput,
  ProjectView,
  PublicPortfolioView,
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
      t.hidden && !staff ? { name: t.name, hidden: true, input: null, expected: null, call: null } : { name: t.name, hidden: t.hidden, input: t.input, expected: t.expected, call: t.call ?? null },
    ),
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

export function presentSubmission(s: Submission): SubmissionView {
  return {
    id: s.id,
    exerciseId: s.exercise.id,
    status: s.status,
    verdict: s.verdict,
    score: s.score,
    // Submissions judged before hidden tests kept their kind and time to themselves still hold them.
    tests: s.results.map((r) => (r.hidden ? { name: r.name, hidden: true, passed: r.passed, message: null, timeMs: null } : r)),
    createdAt: s.createdAt,
    finishedAt: s.finishedAt,
  };
}

export function presentProject(p: Project): ProjectView {
  return {
    id: p.id,
    ownerId: p.owner.id,
    title: p.title,
    description: p.description,
    language: p.language,
    files: p.files,
    visibility: p.visibility,
    remixOf: p.remixOf,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

function presentPortfolio(p: Portfolio | null): PortfolioView {
  if (!p) return { handle: null, headline: '', bio: '', projectIds: [], certificateIds: [], visibility: 'private' };
  return { handle: p.handle, headline: p.headline, bio: p.bio, projectIds: p.projectIds, certificateIds: p.certificateIds, visibility: p.visibility };
}

const me = async (ctx: Context) => (await ctx.viewer()) as User;

/** An account's CodeLab work: only the account itself reads it here (guardians open a project by its id). */
@Resolver(() => UserView)
export class CodeLabUserEdges {
  @FieldResolver(() => ProjectConnection, { nullable: true, description: "The account's projects, newest first (the account itself)" })
  async projects(@Root() user: User, @Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.codelab.myProjects(user, args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentProject) });
  }

  @FieldResolver(() => SubmissionConnection, { nullable: true, description: "The account's exercise submissions, newest first (the account itself)" })
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
    loadMany: async (ctx, ids) => (await ctx.services.codelab.submissionsByIds(await me(ctx), ids)).map(presentSubmission),
  },
  {
    type: 'Project',
    table: 'codelab_projects',
    rule: codelabRules.Query.project,
    field: 'Query.project',
    loadMany: async (ctx, ids) => (await ctx.services.codelab.projectsByIds((await ctx.viewer()) as User | null, ids)).map(presentProject),
  },
];

@Resolver()
export class CodeLabResolver {
  @Mutation(() => RunResultView, { description: 'Runs a program with the limits of CodeLab (per-user runs a minute: CODELAB_RUNS_PER_MINUTE)' })
  async runCode(@Arg('input', () => RunCodeInput, { description: 'The program to run' }) input: RunCodeInput, @Ctx() ctx: Context) {
    return ctx.services.codelab.run(await me(ctx), input);
  }

  @Query(() => ExerciseConnection, { description: 'Exercises, newest first' })
  async codelabExercises(@Args(() => ExerciseArgs) args: ExerciseArgs, @Ctx() ctx: Context) {
    const staff = isStaff(await me(ctx));
    const page = await ctx.services.codelab.exercises(args, args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map((e) => presentExercise(e, staff)) });
  }

  @Query(() => ExerciseView, { description: 'One exercise by its id' })
  async codelabExercise(@Arg('id', () => ID, { description: 'The exercise to show' }) id: string, @Ctx() ctx: Context) {
    return presentExercise(await ctx.services.codelab.exercise(id), isStaff(await me(ctx)));
  }

  @Mutation(() => ExerciseView, { description: 'Content admins' })
  async createExercise(@Arg('input', () => ExerciseInput, { description: 'The new exercise and its tests' }) input: ExerciseInput, @Ctx() ctx: Context) {
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

  @Mutation(() => SubmissionView, { description: 'Queues the code for judging; follow it with submissionUpdated' })
  async submitSolution(
    @Arg('id', () => ID, { description: 'The exercise' }) id: string,
    @Arg('code', () => String, { description: 'The source code of the solution, at most 64 KiB' }) code: string,
    @Ctx() ctx: Context,
  ) {
    return presentSubmission(await ctx.services.codelab.submit(await me(ctx), id, code));
  }

  @Query(() => SubmissionView, { description: "The caller's own submission" })
  async codelabSubmission(@Arg('id', () => ID, { description: 'The submission to show' }) id: string, @Ctx() ctx: Context) {
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
    description: 'The submission when it starts running and when it is judged (its owner only)',
    topics: SUBMISSION_UPDATED,
    topicId: ({ args }) => args.id,
  })
  async submissionUpdated(@Arg('id', () => ID, { description: 'The submission to follow' }) id: string, @Ctx() ctx: Context) {
    ctx.em.clear();
    return presentSubmission(await ctx.services.codelab.submission(await me(ctx), id));
  }

  @Mutation(() => ProjectView, { description: 'Creates a code project owned by the caller' })
  async createProject(@Arg('input', () => ProjectInput, { description: 'The new project' }) input: ProjectInput, @Ctx() ctx: Context) {
    return presentProject(await ctx.services.codelab.createProject(await me(ctx), input));
  }

  @Query(() => ProjectConnection, { description: "The caller's projects, newest first" })
  async myProjects(@Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.codelab.myProjects(await me(ctx), args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentProject) });
  }

  @Query(() => ProjectView, { description: "The owner, the owner's guardians, and anyone when unlisted or public" })
  async project(@Arg('id', () => ID, { description: 'The project to show' }) id: string, @Ctx() ctx: Context) {
    return presentProject(await ctx.services.codelab.project((await ctx.viewer()) as User | null, id));
  }

  @Mutation(() => ProjectView, { description: 'The owner: replaces title, description, language, files and visibility' })
  async updateProject(
    @Arg('id', () => ID, { description: 'The project to save' }) id: string,
    @Arg('input', () => ProjectInput, { description: 'The project as it should be' }) input: ProjectInput,
    @Ctx() ctx: Context,
  ) {
    return presentProject(await ctx.services.codelab.updateProject(await me(ctx), id, input));
  }

  @Mutation(() => Boolean, { description: "Deletes a project of the caller's for good; true when done" })
  async deleteProject(@Arg('id', () => ID, { description: 'The project to delete' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.codelab.deleteProject(await me(ctx), id);
  }

  @Mutation(() => RunResultView, { description: 'Runs the entry file (main.py, main.js or index.js, else the first file)' })
  async runProject(
    @Arg('id', () => ID, { description: 'The project to run' }) id: string,
    @Arg('stdin', () => String, { nullable: true, description: 'Standard input of the run; empty when omitted' }) stdin: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.codelab.runProject(await me(ctx), id, stdin);
  }

  @Mutation(() => ProjectView, { description: 'A private copy of a project the caller may see' })
  async remixProject(@Arg('id', () => ID, { description: 'The project to copy' }) id: string, @Ctx() ctx: Context) {
    return presentProject(await ctx.services.codelab.remixProject(await me(ctx), id));
  }

  @Query(() => PortfolioView, { description: "The caller's portfolio, with empty values until it is first saved" })
  async myPortfolio(@Ctx() ctx: Context) {
    return presentPortfolio(await ctx.services.codelab.myPortfolio(await me(ctx)));
  }

  @Mutation(() => PortfolioView, { description: "Saves the caller's portfolio as a whole" })
  async updatePortfolio(@Arg('input', () => PortfolioInput, { description: 'The portfolio as it should be' }) input: PortfolioInput, @Ctx() ctx: Context) {
    return presentPortfolio(await ctx.services.codelab.updatePortfolio(await me(ctx), input));
  }

  @Query(() => PublicPortfolioView, { description: 'A public portfolio by handle (anyone)' })
  async portfolio(@Arg('handle', () => String, { description: 'The handle of the portfolio, as in its public address' }) handle: string, @Ctx() ctx: Context): Promise<PublicPortfolioView> {
    const page = await ctx.services.codelab.publicPortfolio(handle);
    return {
      handle: page.portfolio.handle,
      displayName: page.displayName,
      headline: page.portfolio.headline,
      bio: page.portfolio.bio,
      projects: page.projects.map(presentProject),
      certificates: page.certificates.map((c) => ({ id: c.id, courseTitle: c.course.title, issuedAt: c.issuedAt })),
    };
  }
}
