import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { UserView } from '../auth';
import { Role, type User } from '../auth';
import type { Context } from '../kernel/context';
import { toConnection } from '../kernel/pagination';
import { RoleChangeView, UserConnection, UsersArgs } from './admin.types';

@Resolver(() => UserView)
export class AdminResolver {
  @Query(() => UserConnection, { description: 'Accounts, newest first (admins only)' })
  async users(@Args(() => UsersArgs) args: UsersArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.admin.listUsers(args.filter ?? {}, args.first, args.after));
  }

  @Mutation(() => UserView, { description: 'Gives a role to an account (admins only); recorded' })
  async grantRole(@Arg('userId', () => ID) userId: string, @Arg('role', () => Role) role: Role, @Ctx() ctx: Context) {
    return ctx.services.admin.grantRole(await ctx.viewer(), userId, role);
  }

  @Mutation(() => UserView, { description: 'Takes a role from an account (admins only); recorded' })
  async removeRole(@Arg('userId', () => ID) userId: string, @Arg('role', () => Role) role: Role, @Ctx() ctx: Context) {
    return ctx.services.admin.removeRole(await ctx.viewer(), userId, role);
  }

  @FieldResolver(() => [RoleChangeView], { description: 'Who changed which role and when (admins only)' })
  async roleChanges(@Root() user: User, @Ctx() ctx: Context): Promise<RoleChangeView[]> {
    const changes = await ctx.services.admin.roleChanges(user.id);
    return changes.map((c) => ({ id: c.id, role: c.role, action: c.action, actorId: c.actor?.id ?? null, createdAt: c.createdAt }));
  }
}
