import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import { RunResultView } from '../codelab';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, toConnection } from '../kernel/pagination';
import type { Project } from './project.entity';
import { projectsRules } from './projects.rules';
import { ProjectConnection, ProjectInput, ProjectView } from './projects.types';

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

const me = async (ctx: Context) => (await ctx.viewer()) as User;

/** An account's projects: only the account itself reads them here (guardians open a project by its id). */
@Resolver(() => UserView)
export class ProjectsUserEdges {
  @FieldResolver(() => ProjectConnection, {
    nullable: true,
    description: "The account's projects, newest first (the account itself)",
  })
  async projects(@Root() user: User, @Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.projects.myProjects(user, args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentProject) });
  }
}

export const projectsNodes: NodeSource[] = [
  {
    type: 'Project',
    table: 'codelab_projects',
    rule: projectsRules.Query.project,
    field: 'Query.project',
    loadMany: async (ctx, ids) =>
      (await ctx.services.projects.projectsByIds((await ctx.viewer()) as User | null, ids)).map(presentProject),
  },
];

@Resolver()
export class ProjectsResolver {
  @Mutation(() => ProjectView, { description: 'Creates a code project owned by the caller' })
  async createProject(
    @Arg('input', () => ProjectInput, { description: 'The new project' }) input: ProjectInput,
    @Ctx() ctx: Context,
  ) {
    return presentProject(await ctx.services.projects.createProject(await me(ctx), input));
  }

  @Query(() => ProjectConnection, { description: "The caller's projects, newest first" })
  async myProjects(@Args(() => PageArgs) args: PageArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.projects.myProjects(await me(ctx), args.first, args.after);
    return toConnection({ ...page, nodes: page.nodes.map(presentProject) });
  }

  @Query(() => ProjectView, { description: "The owner, the owner's guardians, and anyone when unlisted or public" })
  async project(@Arg('id', () => ID, { description: 'The project to show' }) id: string, @Ctx() ctx: Context) {
    return presentProject(await ctx.services.projects.project((await ctx.viewer()) as User | null, id));
  }

  @Mutation(() => ProjectView, {
    description: 'The owner: replaces title, description, language, files and visibility',
  })
  async updateProject(
    @Arg('id', () => ID, { description: 'The project to save' }) id: string,
    @Arg('input', () => ProjectInput, { description: 'The project as it should be' }) input: ProjectInput,
    @Ctx() ctx: Context,
  ) {
    return presentProject(await ctx.services.projects.updateProject(await me(ctx), id, input));
  }

  @Mutation(() => Boolean, { description: "Deletes a project of the caller's for good; true when done" })
  async deleteProject(@Arg('id', () => ID, { description: 'The project to delete' }) id: string, @Ctx() ctx: Context) {
    return ctx.services.projects.deleteProject(await me(ctx), id);
  }

  @Mutation(() => RunResultView, {
    description: 'Runs the entry file (main.py, main.js or index.js, else the first file)',
  })
  async runProject(
    @Arg('id', () => ID, { description: 'The project to run' }) id: string,
    @Arg('stdin', () => String, { nullable: true, description: 'Standard input of the run; empty when omitted' })
    stdin: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.projects.runProject(await me(ctx), id, stdin);
  }

  @Mutation(() => ProjectView, { description: 'A private copy of a project the caller may see' })
  async remixProject(@Arg('id', () => ID, { description: 'The project to copy' }) id: string, @Ctx() ctx: Context) {
    return presentProject(await ctx.services.projects.remixProject(await me(ctx), id));
  }
}
