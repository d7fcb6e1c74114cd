import { restRoutes } from '../kernel/rest-route';

/** The REST paths of this area; each runs the operation of that name in `auth.graphql`. */
export const authRoutes = restRoutes(__dirname, 'auth.graphql', [
  {
    method: 'post',
    path: '/auth/signup',
    status: 201,
    operation: 'Signup',
    summary: 'Sign up; a verification mail is sent',
  },
  { method: 'post', path: '/auth/login', status: 200, operation: 'Login', summary: 'Log in' },
  {
    method: 'post',
    path: '/auth/refresh',
    status: 200,
    operation: 'Refresh',
    summary: 'Trade a refresh token for a new pair',
  },
  {
    method: 'post',
    path: '/auth/logout',
    status: 204,
    operation: 'Logout',
    summary: 'End the session of a refresh token',
  },
  {
    method: 'post',
    path: '/auth/verify-email',
    status: 200,
    operation: 'VerifyEmail',
    summary: 'Verify the e-mail address with the mailed token',
    body: { wrap: 'user' },
  },
  {
    method: 'post',
    path: '/auth/resend-verification',
    status: 202,
    operation: 'ResendVerification',
    summary: 'Send the verification mail again',
    body: 'accepted',
  },
  {
    method: 'post',
    path: '/auth/forgot-password',
    status: 202,
    operation: 'ForgotPassword',
    summary: 'Mail a password reset link (same answer for unknown addresses)',
    body: 'accepted',
  },
  {
    method: 'post',
    path: '/auth/reset-password',
    status: 204,
    operation: 'ResetPassword',
    summary: 'Set a new password with the mailed token; every session ends',
  },
  {
    method: 'get',
    path: '/auth/me',
    status: 200,
    operation: 'Me',
    summary: 'The signed-in account',
    body: { wrap: 'user' },
  },
]);
