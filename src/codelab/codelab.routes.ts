import { restRoutes } from '../kernel/rest-route';

/** The REST paths of CodeLab, projects and portfolios; each runs the operation of that name in `codelab.graphql`. */
export const codelabRoutes = restRoutes(__dirname, 'codelab.graphql', [
  { method: 'post', path: '/codelab/run', status: 200, operation: 'RunCode', summary: 'Run a Python or JavaScript program (runs a minute per user: CODELAB_RUNS_PER_MINUTE)' },
  { method: 'get', path: '/codelab/exercises', status: 200, operation: 'Exercises', summary: 'Exercises by language and course; hidden tests show their name only', body: 'list' },
  { method: 'get', path: '/codelab/exercises/:id', status: 200, operation: 'Exercise', summary: 'An exercise; hidden tests show their name only' },
  { method: 'post', path: '/codelab/exercises', status: 201, operation: 'CreateExercise', summary: 'Create an exercise (content admins)' },
  { method: 'put', path: '/codelab/exercises/:id', status: 200, operation: 'UpdateExercise', summary: 'Replace an exercise (content admins)' },
  { method: 'post', path: '/codelab/exercises/:id/submissions', status: 202, operation: 'SubmitSolution', summary: 'Submit code for judging; judged asynchronously' },
  { method: 'get', path: '/codelab/submissions/:id', status: 200, operation: 'Submission', summary: "A submission's status, verdict, score and per-test results (its owner)" },
  {
    method: 'post',
    path: '/codelab/submissions/:id/hint',
    status: 200,
    operation: 'RequestHint',
    summary: "A hint from the AI tutor about the caller's submission (the AI proxy's checks: consent, guardian's switch, quota)",
  },
  { method: 'get', path: '/codelab/me/submissions', status: 200, operation: 'MySubmissions', summary: "The caller's submissions", body: 'list' },
  { method: 'post', path: '/projects', status: 201, operation: 'CreateProject', summary: 'Create a project (at most 50 files and 256 KiB)' },
  { method: 'get', path: '/projects/me', status: 200, operation: 'MyProjects', summary: "The caller's projects", body: 'list' },
  { method: 'get', path: '/projects/:id', status: 200, operation: 'Project', summary: "A project: its owner, the owner's guardians, anyone when unlisted or public" },
  { method: 'put', path: '/projects/:id', status: 200, operation: 'UpdateProject', summary: 'Replace a project (its owner)' },
  { method: 'delete', path: '/projects/:id', status: 204, operation: 'DeleteProject', summary: 'Delete a project (its owner)' },
  { method: 'post', path: '/projects/:id/run', status: 200, operation: 'RunProject', summary: "Run a project's entry file" },
  { method: 'post', path: '/projects/:id/remix', status: 201, operation: 'RemixProject', summary: 'A private copy of a project the caller may see' },
  { method: 'get', path: '/portfolio/me', status: 200, operation: 'MyPortfolio', summary: "The caller's portfolio" },
  { method: 'put', path: '/portfolio/me', status: 200, operation: 'UpdatePortfolio', summary: "Set the caller's portfolio (a public one under 18 needs a guardian's progress_sharing consent)" },
  { method: 'get', path: '/portfolio/:handle', status: 200, operation: 'Portfolio', summary: 'A public portfolio: display name, headline, bio, public projects and certificates' },
]);
