import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';
import type { NodeSource } from '../kernel/node';
import { PageArgs, toConnection } from '../kernel/pagination';
import { reportsRules } from './reports.rules';
import type { GuardianReport } from './report.entity';
import { GuardianReportConnection, type GuardianReportView } from './reports.types';

const present = (r: GuardianReport): GuardianReportView => ({
  id: r.id,
  learnerId: r.learner.id,
  kind: r.kind,
  period: r.period,
  activityCount: r.activityCount,
  sentAt: r.sentAt,
  createdAt: r.createdAt,
});

export const reportsNodes: NodeSource[] = [
  {
    type: 'GuardianReport',
    table: 'guardian_reports',
    rule: reportsRules.Query.guardianReports,
    field: 'Query.guardianReports',
    loadMany: async (ctx, ids) =>
      (await ctx.services.reports.byIds(ctx.auth.userId!, ids)).map((r) => ({ ...present(r), createdAt: r.createdAt })),
  },
];

@Resolver()
export class ReportsResolver {
  @Query(() => GuardianReportConnection, { description: 'Report mails sent to the caller (a guardian), newest first' })
  async guardianReports(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const result = await ctx.services.reports.list(ctx.auth.userId!, page.first, page.after);
    return toConnection({ ...result, nodes: result.nodes.map((r) => ({ ...present(r), createdAt: r.createdAt })) });
  }
}
