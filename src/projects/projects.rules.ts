import { allow, and, rule } from 'graphql-shield';
import type { User } from '../auth';
import { mayStoreLearnerData } from '../consent';
import { learnerActive } from '../guardian';
import type { Context } from '../kernel/context';
import { aboutCallerAnd, isAuthenticated, isSelf, refusalOf } from '../permissions/rules';

const caller = async (ctx: Context) => (await ctx.viewer()) as User;

/** The project named by `id` is the caller's (another's they may see: 403; any other: 404), whatever else was sent. */
const ownsProject = and(
  isAuthenticated,
  aboutCallerAnd(
    ['id'],
    rule('ownsProject', { cache: 'no_cache' })(async (_parent, args: { id: string }, ctx: Context) =>
      refusalOf(async () => ctx.services.projects.ownProject(await caller(ctx), args.id)),
    ),
  ),
);

/** The caller may see the project named by `id` (the owner, their guardians, anyone when it is shared); 404 otherwise. */
const seesProject = and(
  isAuthenticated,
  aboutCallerAnd(
    ['id'],
    rule('seesProject', { cache: 'no_cache' })(async (_parent, args: { id: string }, ctx: Context) =>
      refusalOf(async () => ctx.services.projects.project(await caller(ctx), args.id)),
    ),
  ),
);

export const projectsRules = {
  Query: {
    myProjects: isAuthenticated,
    // Anyone: the service shows a private project to its owner and the owner's guardians only.
    project: allow,
  },
  Mutation: {
    createProject: mayStoreLearnerData,
    updateProject: and(mayStoreLearnerData, ownsProject),
    deleteProject: ownsProject,
    runProject: and(learnerActive, seesProject),
    remixProject: and(mayStoreLearnerData, seesProject),
  },
  Project: allow,
  ProjectFile: allow,
  ProjectConnection: allow,
  ProjectEdge: allow,
  User: { projects: isSelf },
};
