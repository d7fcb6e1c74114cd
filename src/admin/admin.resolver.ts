import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { UserView } from '../auth';
import { Role, type User } from '../auth';
import type { Context } from '../kernel/context';
import { toConnection } from '../kernel/pagination';
import {
  AuditArgs,
  AuditEntryConnection,
  PlatformStatsView,
  RoleChangeView,
  SuspendInput,
  UserConnection,
  UsersArgs,
} from './admin.types';
import type { NodeSource } from '../kernel/node';
import { adminRules } from './admin.rules';
import type { AuditEntry } from '../audit';
import type { RoleChange } from './role-change.entity';

@Resolver(() => UserView)
export class AdminResolver {
  @Query(() => UserConnection, { description: 'Accounts, newest first (admins only)' })
  async users(@Args(() => UsersArgs) args: UsersArgs, @Ctx() ctx: Context) {
    return toConnection(await ctx.services.admin.listUsers(args.filter ?? {}, args.first, args.after));
  }

  @Mutation(() => UserView, { description: 'Gives a role to an account (admins only); recorded' })
  async grantRole(
    @Arg('userId', () => ID, { description: 'The account that gets the role' }) userId: string,
    @Arg('role', () => Role, { description: 'The role to give' }) role: Role,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.admin.grantRole(await ctx.viewer(), userId, role);
  }

  @Mutation(() => UserView, { description: 'Takes a role from an account (admins only); recorded' })
  async removeRole(
    @Arg('userId', () => ID, { description: 'The account that loses the role' }) userId: string,
    @Arg('role', () => Role, { description: 'The role to take away' }) role: Role,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.admin.removeRole(await ctx.viewer(), userId, role);
  }

  @Mutation(() => UserView, {
    description: 'Suspends an account: log-in and every token refused, sessions ended (admins only); audited',
  })
  async suspendUser(
    @Arg('userId', () => ID, { description: 'The account to suspend' }) userId: string,
    @Arg('input', () => SuspendInput, { nullable: true, description: 'Why the account is suspended; may be omitted' })
    input: SuspendInput | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.admin.suspend(await ctx.viewer(), userId, input ?? {});
  }

  @Mutation(() => UserView, { description: 'Lifts a suspension (admins only); audited' })
  async reactivateUser(
    @Arg('userId', () => ID, { description: 'The account to reactivate' }) userId: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.admin.reactivate(await ctx.viewer(), userId);
  }

  @Query(() => AuditEntryConnection, { description: 'Privileged actions, newest first, with filters (admins only)' })
  async auditEntries(@Args(() => AuditArgs) args: AuditArgs, @Ctx() ctx: Context) {
    const page = await ctx.services.audit.list(args, args.first, args.after);
    return toConnection({ ...page, nodes: await auditViews(ctx, page.nodes) });
  }

  @Query(() => PlatformStatsView, {
    description: 'Users, activity, enrollments, certificates, AI use and revenue (admins only)',
  })
  async platformStats(@Ctx() ctx: Context) {
    return ctx.services.admin.stats();
  }

  @FieldResolver(() => [RoleChangeView], {
    nullable: true,
    description: 'Who changed which role and when (admins only)',
  })
  async roleChanges(@Root() user: User, @Ctx() ctx: Context): Promise<RoleChangeView[]> {
    return (await ctx.services.admin.roleChanges(user)).map(roleChangeView);
  }
}

const roleChangeView = (c: RoleChange): RoleChangeView => ({
  id: c.id,
  role: c.role,
  action: c.action,
  actorId: c.actor?.id ?? null,
  createdAt: c.createdAt,
});

export const adminNodes: NodeSource[] = [
  {
    type: 'AuditEntryView',
    table: 'audit_entries',
    rule: adminRules.Query.auditEntries,
    field: 'Query.auditEntries',
    loadMany: async (ctx, ids) => auditViews(ctx, await ctx.services.audit.byIds(ids)),
  },
  {
    // No root read of its own: it is listed on an account (User.roleChanges), for admins only.
    type: 'RoleChangeView',
    table: 'role_changes',
    rule: adminRules.User.roleChanges,
    field: 'Query.users',
    loadMany: async (ctx, ids) => (await ctx.services.admin.roleChangesByIds(ids)).map(roleChangeView),
  },
];

/** The entries with their actors' addresses, read where each actor lives (often not where the entry is). */
async function auditViews(ctx: Context, entries: AuditEntry[]) {
  const emails = await ctx.services.accounts.emailsOf(
    entries.flatMap((entry) => (entry.actor ? [entry.actor.id] : [])),
  );
  return entries.map((entry) => auditView(entry, emails));
}

function auditView(entry: AuditEntry, emails: ReadonlyMap<string, string>) {
  return {
    id: entry.id,
    actorId: entry.actor?.id ?? null,
    actorEmail: entry.actor ? (emails.get(entry.actor.id) ?? null) : null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    data: entry.data,
    createdAt: entry.createdAt,
  };
}
