import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `certificates.graphql`. */
export const certificatesRoutes = restRoutes(__dirname, 'certificates.graphql', [
  {
    method: 'get',
    path: '/certificates',
    status: 200,
    operation: 'MyCertificates',
    summary: "The caller's certificates",
    body: { wrap: 'items' },
  },
  {
    method: 'get',
    path: '/certificates/verify/:code',
    status: 200,
    operation: 'VerifyCertificate',
    summary: 'Check a certificate by its code (public: name, course, date)',
  },
  {
    method: 'get',
    path: '/certificates/:id',
    status: 200,
    operation: 'Certificate',
    summary: 'One certificate (its PDF: /certificates/:id/pdf)',
  },
]);
