import { allow, and, rule } from 'graphql-shield';
import { AccountStatus, Role } from '../auth';
import {
  aboutCaller,
  aboutCallerAnd,
  hasRole,
  isAuthenticated,
  isSelf,
  isVerified,
  namedRule,
  throttled,
} from '../permissions/rules';
import type { Context } from '../kernel/context';
import type { GuardianLink } from './guardian-link.entity';
import {
  guardianRequired,
  onlyLinkGuardian,
  onlySelfOrGuardians,
  unknownAccount,
  unknownLearner,
} from './guardian.errors';

const learnersOfCaller = new WeakMap<Context, Promise<Set<string>>>();

/** The learners the caller is an active guardian of: read once per request, however many fields ask. */
export function callerLearnerIds(ctx: Context): Promise<Set<string>> {
  let ids = learnersOfCaller.get(ctx);
  if (!ids)
    learnersOfCaller.set(
      ctx,
      (ids = ctx.auth.userId
        ? ctx.services.guardian.activeLearnerIdsOf(ctx.auth.userId).then((list) => new Set(list))
        : Promise.resolve(new Set<string>())),
    );
  return ids;
}

/**
 * The caller's own list of active learners (`User.linkedLearners`) is the set the rules ask for:
 * kept as it, so the dashboard's learner fields do not read the links again.
 */
export function knowCallerLearners(ctx: Context, learnerIds: string[]): void {
  if (!learnersOfCaller.has(ctx)) learnersOfCaller.set(ctx, Promise.resolve(new Set(learnerIds)));
}

/** A field of an account that the account and, for a learner, their active guardians read: courses, progress, certificates, consents. */
export const isSelfOrGuardian = namedRule('isSelfOrGuardian', () =>
  and(
    isAuthenticated,
    rule('isSelfOrGuardian', { cache: 'no_cache' })(
      async (parent: { id: string }, _args, ctx: Context) =>
        parent.id === ctx.auth.userId || (await callerLearnerIds(ctx)).has(parent.id) || onlySelfOrGuardians(),
    ),
  ),
);

/** `node(id:)` of an account: oneself, an admin, or the learner's active guardian. */
export const canSeeAccount = and(
  isAuthenticated,
  rule('canSeeAccount', { cache: 'no_cache' })(async (_parent, args: { id: string }, ctx: Context) => {
    if (args.id === ctx.auth.userId || (await ctx.viewer())!.roles.includes(Role.admin)) return true;
    return (await callerLearnerIds(ctx)).has(args.id) || unknownAccount();
  }),
);

/** The learner's account behind a link: for the link's guardian (the resolver answers null until the link is active). */
const isLinkGuardian = and(
  isAuthenticated,
  rule('isLinkGuardian', { cache: 'no_cache' })(
    async (link: GuardianLink, _args, ctx: Context) => link.guardian.id === ctx.auth.userId || onlyLinkGuardian(),
  ),
);

/** A guardian whose e-mail is verified: what every guardian operation presupposes. */
export const isVerifiedGuardian = and(hasRole(Role.guardian), isVerified);

/** A learner under 13 waits for a guardian: until then, only links, the inbox and the account. */
export const learnerActive = and(
  isAuthenticated,
  aboutCaller(
    rule('learnerActive', { cache: 'no_cache' })(async (_parent, _args, ctx: Context) => {
      const viewer = await ctx.viewer();
      return viewer!.status !== AccountStatus.pending_guardian || guardianRequired();
    }),
  ),
);

/** For fields of a learner named by an argument: the caller is their active guardian. */
export const isGuardianOf = (learnerArg: string) =>
  namedRule(`isGuardianOf(${learnerArg})`, () =>
    and(
      isVerifiedGuardian,
      aboutCallerAnd(
        [learnerArg],
        rule(`isGuardianOf(${learnerArg})`, { cache: 'no_cache' })(
          async (_parent, args: Record<string, string>, ctx: Context) => {
            return (
              (await ctx.services.guardian.isActiveGuardianOf(ctx.auth.userId!, args[learnerArg])) || unknownLearner()
            );
          },
        ),
      ),
    ),
  );

export const guardianRules = {
  Query: {
    myGuardianLinks: isAuthenticated,
    linkedLearner: isGuardianOf('learnerId'),
    learnerAiAccess: isGuardianOf('learnerId'),
  },
  Mutation: {
    declareLearner: isVerifiedGuardian,
    addChild: isVerifiedGuardian,
    // Approving makes the link active: only an account that proved its address (a squatter who signed up with a child's address has not).
    approveGuardianLink: isVerified,
    revokeGuardianLink: isAuthenticated,
    confirmGuardianLink: throttled('auth'),
    updateLearnerAiAccess: isGuardianOf('learnerId'),
  },
  GuardianLink: { '*': allow, learnerAccount: isLinkGuardian },
  User: { guardianLinks: isSelf, linkedLearners: isSelf, aiAccess: isSelfOrGuardian },
  GuardianLinkConnection: allow,
  GuardianLinkEdge: allow,
  GuardianLinkTransitionView: allow,
  LinkParty: allow,
  LinkedLearner: allow,
  LearnerAiAccess: allow,
};
