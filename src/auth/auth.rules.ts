import { allow } from 'graphql-shield';
import { isAuthenticated, throttled } from '../permissions/rules';

const authLimit = throttled('auth');

export const authRules = {
  Query: { me: isAuthenticated },
  Mutation: {
    signup: authLimit,
    login: authLimit,
    refreshSession: authLimit,
    logout: authLimit,
    verifyEmail: authLimit,
    resendVerification: authLimit,
    forgotPassword: authLimit,
    resetPassword: authLimit,
  },
  Subscription: { accountChanged: isAuthenticated },
  User: allow,
  AuthPayload: allow,
};
