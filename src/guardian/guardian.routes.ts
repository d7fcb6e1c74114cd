import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `guardian.graphql`. */
export const guardianRoutes = restRoutes(__dirname, 'guardian.graphql', [
  {
    method: 'post',
    path: '/guardian/declare',
    status: 201,
    operation: 'DeclareLearner',
    summary: 'Declare a link to a learner by e-mail; it waits for the learner',
  },
  {
    method: 'post',
    path: '/guardian/learners',
    status: 201,
    operation: 'AddChild',
    summary: 'Add a child without an e-mail of their own; the link is active at once',
  },
  {
    method: 'post',
    path: '/guardian/links/confirm',
    status: 200,
    operation: 'ConfirmGuardianLink',
    summary: 'Confirm a link with the token mailed to the learner',
  },
  {
    method: 'post',
    path: '/guardian/links/:id/approve',
    status: 200,
    operation: 'ApproveGuardianLink',
    summary: 'Approve a pending link (the learner or an admin)',
  },
  {
    method: 'post',
    path: '/guardian/links/:id/revoke',
    status: 200,
    operation: 'RevokeGuardianLink',
    summary: 'Revoke a link (the guardian, the learner from 16, an admin)',
  },
  {
    method: 'get',
    path: '/guardian/me/links',
    status: 200,
    operation: 'MyGuardianLinks',
    summary: "The caller's links, as guardian and as learner",
    body: 'list',
  },
  {
    method: 'get',
    path: '/guardian/learners/:learnerId',
    status: 200,
    operation: 'LinkedLearner',
    summary: 'A linked learner (their active guardian)',
  },
  {
    method: 'get',
    path: '/guardian/learners/:learnerId/ai-access',
    status: 200,
    operation: 'LearnerAiAccess',
    summary: "A linked learner's AI restrictions",
  },
  {
    method: 'put',
    path: '/guardian/learners/:learnerId/ai-access',
    status: 200,
    operation: 'UpdateLearnerAiAccess',
    summary: "Restrict a linked learner's AI use",
  },
]);
