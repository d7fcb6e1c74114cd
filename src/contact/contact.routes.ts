import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `contact.graphql`. */
export const contactRoutes = restRoutes(__dirname, 'contact.graphql', [
  {
    method: 'post',
    path: '/contact',
    status: 202,
    operation: 'SendContactMessage',
    summary: 'Write to the platform (anonymous; RATE_LIMIT_CONTACT an hour per IP); `website` must stay empty',
  },
  {
    method: 'get',
    path: '/contact/messages',
    status: 200,
    operation: 'ContactMessages',
    summary: 'Contact messages, newest first, by status (admins)',
    body: 'list',
  },
  {
    method: 'post',
    path: '/contact/messages/:id/resolve',
    status: 200,
    operation: 'ResolveContactMessage',
    summary: 'Mark a contact message resolved (admins); audited',
  },
]);
