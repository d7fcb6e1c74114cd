import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../kernel/context';
import { PageArgs, toConnection } from '../kernel/pagination';
import type { GuardianReport, GuardianReportSettings } from './report.entity';
import { GuardianReportConnection, GuardianReportSettingsInput, GuardianReportSettingsView, type GuardianReportView } from './reports.types';

const present = (r: GuardianReport): GuardianReportView => ({
  id: r.id,
  learnerId: r.learner.id,
  kind: r.kind,
  period: r.period,
  activityCount: r.activityCount,
  sentAt: r.sentAt,
  createdAt: r.createdAt,
});
const presentSettings = (s: GuardianReportSettings): GuardianReportSettingsView => ({ weeklyReport: s.weeklyReport, monthlyReport: s.monthlyReport, inactivityAlert: s.inactivityAlert });

@Resolver()
export class ReportsResolver {
  @Query(() => GuardianReportConnection, { description: 'Report mails sent to the caller (a guardian), newest first' })
  async guardianReports(@Args(() => PageArgs) page: PageArgs, @Ctx() ctx: Context) {
    const result = await ctx.services.reports.list(ctx.auth.userId!, page.first, page.after);
    return toConnection({ ...result, nodes: result.nodes.map((r) => ({ ...present(r), createdAt: r.createdAt })) });
  }

  @Query(() => GuardianReportSettingsView)
  async guardianReportSettings(@Ctx() ctx: Context) {
    return presentSettings(await ctx.services.reports.settings(ctx.auth.userId!));
  }

  @Mutation(() => GuardianReportSettingsView, { description: 'Turns the weekly, monthly and inactivity mails on or off' })
  async updateGuardianReportSettings(@Arg('input', () => GuardianReportSettingsInput) input: GuardianReportSettingsInput, @Ctx() ctx: Context) {
    return presentSettings(
      await ctx.services.reports.updateSettings(ctx.auth.userId!, {
        weeklyReport: input.weeklyReport ?? undefined,
        monthlyReport: input.monthlyReport ?? undefined,
        inactivityAlert: input.inactivityAlert ?? undefined,
      }),
    );
  }
}
