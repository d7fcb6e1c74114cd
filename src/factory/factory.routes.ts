import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `factory.graphql`. */
export const factoryRoutes = restRoutes(__dirname, 'factory.graphql', [
  {
    method: 'post',
    path: '/factory/generate',
    status: 202,
    operation: 'GenerateCourse',
    summary: 'Start generating a course (admins and content admins); the five stages run in the background',
  },
  {
    method: 'get',
    path: '/factory/generations',
    status: 200,
    operation: 'FactoryGenerations',
    summary: 'Course generations, newest first, with their stages but not their outputs (admins and content admins)',
    body: 'list',
  },
  {
    method: 'get',
    path: '/factory/generations/:id',
    status: 200,
    operation: 'FactoryGeneration',
    summary: "A generation's status, its stages' outputs, its lessons and their safety findings",
  },
  {
    method: 'post',
    path: '/factory/generations/:id/approve',
    status: 200,
    operation: 'ApproveGeneration',
    summary: 'Approve: publishes the course (only from awaiting_approval; a second call answers the same)',
  },
  {
    method: 'post',
    path: '/factory/generations/:id/reject',
    status: 200,
    operation: 'RejectGeneration',
    summary: 'Reject a generation awaiting approval, flagged or failed',
  },
  {
    method: 'post',
    path: '/factory/generations/:id/retry',
    status: 200,
    operation: 'RetryGeneration',
    summary: 'Run a failed generation again from the stage that failed',
  },
  {
    method: 'post',
    path: '/factory/generations/:id/regenerate',
    status: 200,
    operation: 'RegenerateFlaggedLessons',
    summary: 'Write the flagged lessons of a flagged generation again, then check them again',
  },
]);
