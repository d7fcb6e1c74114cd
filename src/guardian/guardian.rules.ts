import { allow, and, rule } from 'graphql-shield';
import { AccountStatus, Role } from '../auth';
import { hasRole, isAuthenticated, isVerified, namedRule, throttled } from '../permissions/rules';
import type { Context } from '../kernel/context';
import { AppError } from '../kernel/errors';

/** A guardian whose e-mail is verified: what every guardian operation presupposes. */
export const isVerifiedGuardian = and(hasRole(Role.guardian), isVerified);

/** A learner under 13 waits for a guardian: until then, only links, the inbox and the account. */
export const learnerActive = and(
  isAuthenticated,
  rule('learnerActive', { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
    const viewer = await ctx.viewer();
    return viewer!.status !== AccountStatus.pending_guardian || new AppError('guardian_required', 'A verified guardian must link to your account first.');
  }),
);

/** For fields of a learner named by an argument: the caller is their active guardian. */
export const isGuardianOf = (learnerArg: string) =>
  namedRule(`isGuardianOf(${learnerArg})`, () =>
    and(
      isVerifiedGuardian,
      rule(`isGuardianOf(${learnerArg})`, { cache: 'no_cache' })(async (_parent, args: Record<string, string>, ctx: Context) => {
        return (await ctx.services.guardian.isActiveGuardianOf(ctx.auth.userId!, args[learnerArg])) || new AppError('not_found', 'No such learner.');
      }),
    ),
  );

export const guardianRules = {
  Query: { myGuardianLinks: isAuthenticated, linkedLearner: isGuardianOf('learnerId'), learnerAiAccess: isGuardianOf('learnerId') },
  Mutation: {
    declareLearner: isVerifiedGuardian,
    addChild: isVerifiedGuardian,
    approveGuardianLink: isAuthenticated,
    revokeGuardianLink: isAuthenticated,
    confirmGuardianLink: throttled('auth'),
    updateLearnerAiAccess: isGuardianOf('learnerId'),
  },
  GuardianLink: allow,
  GuardianLinkConnection: allow,
  GuardianLinkEdge: allow,
  GuardianLinkTransitionView: allow,
  LinkParty: allow,
  LinkedLearner: allow,
  LearnerAiAccess: allow,
};
