import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, toConnection } from '../kernel/pagination';
import { gdprRules } from './gdpr.rules';
import {
  AdminGdprRequestsArgs,
  GdprRequestConnection,
  GdprRequestView,
  RequestDeletionInput,
  RequestExportInput,
} from './gdpr.types';

export const gdprNodes: NodeSource[] = [
  {
    type: 'GdprRequest',
    table: 'gdpr_requests',
    rule: gdprRules.Query.gdprRequest,
    field: 'Query.gdprRequest',
    loadMany: async (ctx, ids) =>
      (await ctx.services.gdpr.findMany(ctx.auth.userId!, ids)).map((r) =>
        ctx.services.gdpr.present(r, ctx.auth.userId!),
      ),
  },
];

@Resolver()
export class GdprResolver {
  @Query(() => GdprRequestConnection, {
    description: 'Privacy requests the caller made or that concern the caller, newest first',
  })
  async gdprRequests(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const gdpr = ctx.services.gdpr;
    const result = await gdpr.list(ctx.auth.userId!, page.first, page.after);
    return toConnection({ ...result, nodes: result.nodes.map((r) => gdpr.present(r, ctx.auth.userId!)) });
  }

  @Query(() => GdprRequestView, {
    description: 'A data export or erasure request the caller made or that concerns them',
  })
  async gdprRequest(@Arg('id', () => ID, { description: "The request's global id" }) id: string, @Ctx() ctx: Context) {
    return ctx.services.gdpr.present(await ctx.services.gdpr.find(ctx.auth.userId!, id), ctx.auth.userId!);
  }

  @Query(() => GdprRequestConnection, {
    description:
      'Admins: every privacy request, newest first, with its legal deadline; dueWithinDays keeps the open ones near it',
  })
  async adminGdprRequests(@Args(() => AdminGdprRequestsArgs) args: AdminGdprRequestsArgs, @Ctx() ctx: Context) {
    const gdpr = ctx.services.gdpr;
    const result = await gdpr.adminList(args.first, args.after, {
      status: args.status ?? null,
      dueWithinDays: args.dueWithinDays ?? null,
    });
    return toConnection({ ...result, nodes: result.nodes.map((r) => gdpr.present(r, null)) });
  }

  @Mutation(() => GdprRequestView, {
    description: 'Starts an export of the data (202 on REST); the link is mailed when ready',
  })
  async requestDataExport(
    @Arg('input', () => RequestExportInput, { description: 'Whose data to export' }) input: RequestExportInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.gdpr.present(
      await ctx.services.gdpr.requestExport(ctx.auth.userId!, input.learnerId ?? null),
      ctx.auth.userId!,
    );
  }

  @Mutation(() => GdprRequestView, {
    description: 'Schedules the erasure of the account after the grace period (202 on REST)',
  })
  async requestAccountDeletion(
    @Arg('input', () => RequestDeletionInput, { description: 'The password, and which learner when a guardian asks' })
    input: RequestDeletionInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.gdpr.present(
      await ctx.services.gdpr.requestDeletion(ctx.auth.userId!, input.learnerId ?? null, input.password),
      ctx.auth.userId!,
    );
  }

  @Mutation(() => GdprRequestView, { description: 'Cancels a scheduled erasure; the account is as before' })
  async cancelGdprRequest(
    @Arg('id', () => ID, { description: "The request's global id" }) id: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.gdpr.present(await ctx.services.gdpr.cancel(ctx.auth.userId!, id), ctx.auth.userId!);
  }
}
