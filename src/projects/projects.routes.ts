import { restRoutes } from '../kernel/rest-route';

/** The REST paths of projects; each runs the operation of that name in `projects.graphql`. */
export const projectsRoutes = restRoutes(__dirname, 'projects.graphql', [
  {
    method: 'post',
    path: '/projects',
    status: 201,
    operation: 'CreateProject',
    summary: 'Create a project (at most 50 files and 256 KiB)',
  },
  {
    method: 'get',
    path: '/projects/me',
    status: 200,
    operation: 'MyProjects',
    summary: "The caller's projects",
    body: 'list',
  },
  {
    method: 'get',
    path: '/projects/:id',
    status: 200,
    operation: 'Project',
    summary: "A project: its owner, the owner's guardians, anyone when unlisted or public",
  },
  {
    method: 'put',
    path: '/projects/:id',
    status: 200,
    operation: 'UpdateProject',
    summary: 'Replace a project (its owner)',
  },
  {
    method: 'delete',
    path: '/projects/:id',
    status: 204,
    operation: 'DeleteProject',
    summary: 'Delete a project (its owner)',
  },
  {
    method: 'post',
    path: '/projects/:id/run',
    status: 200,
    operation: 'RunProject',
    summary: "Run a project's entry file",
  },
  {
    method: 'post',
    path: '/projects/:id/remix',
    status: 201,
    operation: 'RemixProject',
    summary: 'A private copy of a project the caller may see',
  },
]);
