import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { type User, UserView } from '../auth';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, pageOf, toConnectionOf } from '../kernel/pagination';
import type { Entitlement } from './entitlements.entity';
import { entitlementsRules } from './entitlements.rules';
import { EntitlementConnection, EntitlementView, GrantInput, MyEntitlementsView } from './entitlements.types';

const presentEntitlement = (e: Entitlement): EntitlementView => ({
  id: e.id,
  kind: e.kind,
  tier: e.tier,
  courseId: e.courseId,
  source: e.source,
  paymentId: e.payment?.id ?? null,
  startsAt: e.startsAt,
  endsAt: e.endsAt,
  status: e.status,
});

const viewer = async (ctx: Context) => (await ctx.viewer()) as User;

/** What an account was given or bought: only the account itself reads it. */
@Resolver(() => UserView)
export class EntitlementsUserEdges {
  @FieldResolver(() => EntitlementConnection, {
    nullable: true,
    description: "The account's entitlements (tiers and courses), active or not, newest first (the account itself)",
  })
  async entitlements(@Root() user: User, @Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    return toConnectionOf(
      pageOf(await ctx.services.entitlements.entitlementsOf(user.id), page.first, page.after),
      presentEntitlement,
    );
  }
}

export const entitlementsNodes: NodeSource[] = [
  {
    type: 'Entitlement',
    table: 'entitlements',
    rule: entitlementsRules.Query.myEntitlements,
    field: 'Query.myEntitlements',
    loadMany: async (ctx, ids) =>
      (await ctx.services.entitlements.entitlementsByIds(ctx.auth.userId!, ids)).map(presentEntitlement),
  },
];

@Resolver()
export class EntitlementsResolver {
  @Query(() => MyEntitlementsView, { description: "The caller's tier and entitlements" })
  async myEntitlements(@Ctx() ctx: Context) {
    const user = await viewer(ctx);
    const tier = await ctx.services.entitlements.recomputeTier(user.id);
    return { tier, items: (await ctx.services.entitlements.entitlementsOf(user.id)).map(presentEntitlement) };
  }

  @Mutation(() => EntitlementView, { description: 'Admins: grant a tier or a course' })
  async grantEntitlement(
    @Arg('input', () => GrantInput, { description: 'The account and what it gets' }) input: GrantInput,
    @Ctx() ctx: Context,
  ) {
    return presentEntitlement(await ctx.services.entitlements.grant(await viewer(ctx), input));
  }

  @Mutation(() => EntitlementView, { description: 'Admins: takes an entitlement back at once' })
  async revokeEntitlement(
    @Arg('id', () => ID, { description: 'The entitlement to revoke' }) id: string,
    @Ctx() ctx: Context,
  ) {
    return presentEntitlement(await ctx.services.entitlements.revoke(await viewer(ctx), id));
  }
}
