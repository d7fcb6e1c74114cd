import { defineArea } from '../kernel/area';
import type { Deps } from '../kernel/deps';
import type { Services } from '../kernel/services';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { allRowsOf } from '../kernel/personal-data';
import { Migration20261123110000_guardian_reports } from './migrations/Migration20261123110000_guardian_reports';
import { GuardianReport } from './report.entity';
import { Migration20261123150100_drop_report_settings } from './migrations/Migration20261123150100_drop_report_settings';
import { reportsUnsubscribeRouter } from './reports.http';
import { ReportsResolver, reportsNodes } from './reports.resolver';
import { reportsRoutes } from './reports.routes';
import { reportsRules } from './reports.rules';
import { ReportsService } from './reports.service';

declare module '../kernel/services' {
  interface Services {
    reports: ReportsService;
  }
}

const REPORTS_JOB = 'reports: send due';
type InUnit = (work: (services: Services, uow: UnitOfWork) => Promise<void>) => Promise<void>;
const units = new WeakMap<Deps, InUnit>();

/**
 * Sends the reports due at `now` (a clock of the caller's, for tests and benchmarks) in every region,
 * each in its own database; how many mails went out.
 */
export async function sendDueReports(deps: Deps, now = new Date()): Promise<number> {
  let sent = 0;
  for (const region of deps.regions) sent += await sendDueIn(region, now);
  return sent;
}

/** The reports due at `now` of the families kept in this region's database. */
async function sendDueIn(region: Deps, now: Date): Promise<number> {
  const inUnit = units.get(region);
  if (!inUnit) throw new Error('report jobs are not defined for these deps');
  let sent = 0;
  await inUnit(async (services) => {
    sent = await services.reports.run(now);
  });
  return sent;
}

export const reportsArea = defineArea({
  name: 'guardian-reports',
  uses: ['auth', 'gdpr', 'guardian', 'notifications', 'progress'],
  entities: [GuardianReport],
  resolvers: [ReportsResolver],
  rules: reportsRules,
  nodes: reportsNodes,
  routes: reportsRoutes,
  http: (_deps, context) => reportsUnsubscribeRouter(context),
  migrations: [
    { name: 'Migration20261123110000_guardian_reports', class: Migration20261123110000_guardian_reports },
    { name: 'Migration20261123150100_drop_report_settings', class: Migration20261123150100_drop_report_settings },
  ],
  // Every 15 minutes: each guardian's Monday morning and 1st of the month come in their own time zone.
  // Each region's Agenda runs the job over the families of its own database.
  jobs: (deps, inUnit) => {
    units.set(deps, inUnit);
    deps.jobs.define(REPORTS_JOB, () => sendDueIn(deps, new Date()), { concurrency: 1 });
    deps.jobs.agenda.on('ready', () => {
      deps.jobs.agenda
        .every('15 minutes', REPORTS_JOB)
        .catch((error) => deps.log.error({ err: error }, 'reports job not scheduled'));
    });
  },
  services: { reports: (uow) => new ReportsService(uow) },
  personalData: {
    entities: [GuardianReport],
    export: async (userId, _services, uow) => ({
      reportsReceived: await allRowsOf(uow, GuardianReport, { guardian: userId }),
      reportsAbout: await allRowsOf(uow, GuardianReport, { learner: userId }),
    }),
    erase: async (userId, _pseudonym, _services, uow) => {
      await uow.em.nativeDelete(GuardianReport, { $or: [{ guardian: userId }, { learner: userId }] });
    },
  },
});
