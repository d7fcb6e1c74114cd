import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { type User, UserConnection, UserView } from '../auth';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, pageOf, toConnection } from '../kernel/pagination';
import { canSeeAccount, guardianRules, knowCallerLearners } from './guardian.rules';
import { LinkStatus, type GuardianLink } from './guardian-link.entity';
import { AiAccessView, GuardianLinkConnection, GuardianLinkView } from './guardian.types';

/** Shield has let only signed-in callers through to the fields that use this. */
const viewer = async (ctx: Context): Promise<User> => (await ctx.viewer())!;

/** The guardian's edges of an account: links, linked learners, AI restrictions. */
@Resolver(() => UserView)
export class GuardianUserEdges {
  @FieldResolver(() => GuardianLinkConnection, {
    nullable: true,
    description: "The account's guardian links, as guardian and as learner, newest first (the account itself)",
  })
  async guardianLinks(@Root() _user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.guardian.linksOf(await viewer(ctx), page.first, page.after));
  }

  @FieldResolver(() => UserConnection, {
    nullable: true,
    complexity: 5,
    description:
      'The learners this guardian has an active link with (at most 5), newest account first: each reaches their courses, progress, certificates, consents and AI restrictions',
  })
  async linkedLearners(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const learners = await ctx.services.guardian.activeLearnersOf(user.id);
    // Shield lets only the account itself here (`isSelf`): its learners are the caller's.
    if (user.id === ctx.auth.userId)
      knowCallerLearners(
        ctx,
        learners.map((l) => l.id),
      );
    return toConnection(pageOf(learners, page.first, page.after));
  }

  @FieldResolver(() => AiAccessView, {
    nullable: true,
    description: "A learner's AI restrictions as their guardians set them (the account and its active guardians)",
  })
  aiAccess(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.guardian.aiAccessOfMany(user.id);
  }
}

@Resolver(() => GuardianLinkView)
export class GuardianLinkEdges {
  @FieldResolver(() => UserView, {
    nullable: true,
    description:
      "The learner's account, for the link's guardian while the link is active: their courses, progress and certificates from there",
  })
  learnerAccount(@Root() link: GuardianLink): User | null {
    return link.status === LinkStatus.active && link.learner ? link.learner : null;
  }
}

export const guardianNodes: NodeSource[] = [
  {
    type: 'User',
    table: 'users',
    rule: canSeeAccount,
    field: 'Query.node',
    loadMany: (ctx, ids) => ctx.services.auth.findUsers(ids),
  },
  {
    type: 'GuardianLink',
    table: 'guardian_links',
    rule: guardianRules.Query.myGuardianLinks,
    field: 'Query.myGuardianLinks',
    loadMany: async (ctx, ids) => ctx.services.guardian.linksByIds(await viewer(ctx), ids),
  },
];
