import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `consent.graphql`. */
export const consentRoutes = restRoutes(__dirname, 'consent.graphql', [
  {
    method: 'get',
    path: '/guardian/learners/:learnerId/consents',
    status: 200,
    operation: 'LearnerConsents',
    summary: "A linked learner's consents",
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/consent/me',
    status: 200,
    operation: 'MyConsents',
    summary: "The caller's consents: state, who must give them, who did",
    body: { wrap: 'items' },
  },
  {
    method: 'post',
    path: '/consent/grant',
    status: 200,
    operation: 'GrantConsent',
    summary: 'Grant a consent (learnerId: as guardian of a linked learner)',
  },
  {
    method: 'post',
    path: '/consent/revoke',
    status: 200,
    operation: 'RevokeConsent',
    summary: 'Revoke a consent; the feature stops at once',
  },
  {
    method: 'get',
    path: '/consent/ledger',
    status: 200,
    operation: 'ConsentLedger',
    summary: 'Every grant and revoke of the caller (or learnerId)',
    body: { wrap: 'items' },
  },
]);
