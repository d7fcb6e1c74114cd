import { restRoutes } from '../kernel/rest-route';

/** The REST paths of CodeLab; each runs the operation of that name in `codelab.graphql`. */
export const codelabRoutes = restRoutes(__dirname, 'codelab.graphql', [
  {
    method: 'post',
    path: '/codelab/run',
    status: 200,
    operation: 'RunCode',
    summary: 'Run a Python or JavaScript program (runs a minute per user: CODELAB_RUNS_PER_MINUTE)',
  },
  {
    method: 'get',
    path: '/codelab/exercises',
    status: 200,
    operation: 'Exercises',
    summary: 'Exercises by language and course; hidden tests show their name only',
    body: 'list',
  },
  {
    method: 'get',
    path: '/codelab/exercises/:id',
    status: 200,
    operation: 'Exercise',
    summary: 'An exercise; hidden tests show their name only',
  },
  {
    method: 'post',
    path: '/codelab/exercises',
    status: 201,
    operation: 'CreateExercise',
    summary: 'Create an exercise (content admins)',
  },
  {
    method: 'put',
    path: '/codelab/exercises/:id',
    status: 200,
    operation: 'UpdateExercise',
    summary: 'Replace an exercise (content admins)',
  },
  {
    method: 'post',
    path: '/codelab/exercises/:id/submissions',
    status: 202,
    operation: 'SubmitSolution',
    summary: 'Submit code for judging; judged asynchronously',
  },
  {
    method: 'get',
    path: '/codelab/submissions/:id',
    status: 200,
    operation: 'Submission',
    summary: "A submission's status, verdict, score and per-test results (its owner)",
  },
  {
    method: 'post',
    path: '/codelab/submissions/:id/hint',
    status: 200,
    operation: 'RequestHint',
    summary:
      "A hint from the AI tutor about the caller's submission (the AI proxy's checks: consent, guardian's switch, quota)",
  },
  {
    method: 'get',
    path: '/codelab/me/submissions',
    status: 200,
    operation: 'MySubmissions',
    summary: "The caller's submissions",
    body: 'list',
  },
]);
