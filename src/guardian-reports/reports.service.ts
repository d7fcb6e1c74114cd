import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { homeOfAccount } from '../auth';
import { apiBase } from '../gdpr';
import { isId } from '../kernel/ids';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import { whileLeased } from '../kernel/lease';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Mail } from '../mail/mailer';
import { GuardianReport, ReportKind } from './report.entity';
import { activityChart } from './reports.chart';
import { translator } from './reports.i18n';
import { isoWeek, localDate, localTime, previousDays, timeZoneOf } from './reports.time';

/** Reports are due from this local hour on (Monday morning, the 1st in the morning). */
const MORNING_HOUR = 8;
const INACTIVE_DAYS = 7;
/** Reports claimed, read and marked together. */
const REPORTS_BATCH = 200;

interface Pair {
  guardian_id: string;
  guardian_email: string;
  guardian_locale: string;
  guardian_country: string;
  learner_id: string;
  learner_name: string;
  weekly_report: boolean | null;
  monthly_report: boolean | null;
  inactivity_alert: boolean | null;
  last_activity: Date | null;
}

/** One report due: for whom, which kind and period, and the local days it covers. */
interface Due {
  pair: Pair;
  zone: string;
  kind: ReportKind;
  period: string;
  days: string[];
}

/** A mail with an inline image; nodemailer takes these fields as they are. */
type RichMail = Mail & {
  html: string;
  attachments: { filename: string; content: Buffer; cid: string; contentType: string }[];
  headers: Record<string, string>;
};

/**
 * Guardian e-mail reports (docs/domain.md#privacy-operations): weekly on Monday morning, monthly on the 1st, and an
 * alert after 7 days without activity (once per inactive spell), in the guardian's language and
 * country time zone, with a chart of the period as an inline PNG.
 */
export class ReportsService {
  constructor(private readonly uow: UnitOfWork) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get config() {
    return this.uow.deps.config;
  }

  async list(guardianId: string, first: number, after?: string | null): Promise<Page<GuardianReport>> {
    const mine = { guardian: guardianId, status: 'sent' };
    const rows = await this.em.find(
      GuardianReport,
      { $and: [mine, afterCursor(after)] },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 },
    );
    return toPage(rows, first, after, () => this.em.count(GuardianReport, mine));
  }

  /** The reports among these ids that `list` shows the guardian (sent to them); the graph's `nodes`. */
  byIds(guardianId: string, ids: string[]): Promise<GuardianReport[]> {
    return this.em.find(GuardianReport, { id: { $in: ids.filter(isId) }, guardian: guardianId, status: 'sent' });
  }

  unsubscribeUrl(guardianId: string, kind: ReportKind): string {
    return `${apiBase(this.config)}/guardian/reports/unsubscribe?guardian=${guardianId}&kind=${kind}&signature=${this.sign(guardianId, kind)}`;
  }

  /** The mailed link turns one kind off; true when its signature holds. */
  async unsubscribe(guardianId: string, kind: string, signature: string): Promise<boolean> {
    if (!Object.values(ReportKind).includes(kind as ReportKind)) return false;
    const expected = Buffer.from(this.sign(guardianId, kind));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    const field = ({ weekly: 'weeklyReport', monthly: 'monthlyReport', inactivity: 'inactivityAlert' } as const)[
      kind as ReportKind
    ];
    // The link comes without a token: the guardian's settings are changed in their home region's database.
    const home = await homeOfAccount(this.uow.deps, guardianId);
    await home.unit().services.notifications.updateSettings(guardianId, { [field]: false });
    return true;
  }

  private sign(guardianId: string, kind: string): string {
    return createHmac('sha256', this.config.JWT_SECRET)
      .update(`report-unsubscribe:${guardianId}:${kind}`)
      .digest('base64url');
  }

  /**
   * Sends every report due at `now`; how many mails it sent. Safe to run on several instances at
   * once. Work goes in batches of REPORTS_BATCH: one statement claims a batch's rows, one reads
   * its learners' activity, mails go out REPORTS_CONCURRENCY at a time, and one statement marks
   * them sent, so the database commits a few times per batch, not twice per mail.
   */
  async run(now = new Date()): Promise<number> {
    const pairs = (await this.em.execute(
      `select gl.guardian_id, g.email as guardian_email, g.locale as guardian_locale, g.country as guardian_country,
              gl.learner_id, l.display_name as learner_name, s.weekly_report, s.monthly_report, s.inactivity_alert,
              (select max(at) from learner_activity where learner_id = gl.learner_id) as last_activity
         from active_guardian_links gl
         join account_profiles g on g.id = gl.guardian_id and g.status = 'active'
         join account_profiles l on l.id = gl.learner_id and l.status not in ('deletion_pending', 'erased')
         left join report_toggles s on s.user_id = gl.guardian_id`,
    )) as Pair[];
    const due = pairs.flatMap((pair) => this.dueFor(pair, now));
    let sent = 0;
    for (let start = 0; start < due.length; start += REPORTS_BATCH) {
      sent += await this.sendBatch(due.slice(start, start + REPORTS_BATCH));
    }
    return sent;
  }

  /** The reports due for one guardian and learner at `now`. */
  private dueFor(pair: Pair, now: Date): Due[] {
    const zone = timeZoneOf(pair.guardian_country);
    const local = localTime(now, zone);
    const due: Due[] = [];
    if (pair.weekly_report !== false && local.weekday === 1 && local.hour >= MORNING_HOUR) {
      const days = previousDays(now, zone, 7);
      const [y, m, d] = days[6].split('-').map(Number);
      due.push({ pair, zone, kind: ReportKind.weekly, period: isoWeek(y, m, d), days });
    }
    if (pair.monthly_report !== false && local.day === 1 && local.hour >= MORNING_HOUR) {
      const previous = new Date(Date.UTC(local.year, local.month - 2, 1));
      const length = new Date(Date.UTC(local.year, local.month - 1, 0)).getUTCDate();
      due.push({
        pair,
        zone,
        kind: ReportKind.monthly,
        period: previous.toISOString().slice(0, 7),
        days: previousDays(now, zone, length),
      });
    }
    const last = pair.last_activity ? new Date(pair.last_activity) : null;
    if (pair.inactivity_alert !== false && last && now.getTime() - last.getTime() >= INACTIVE_DAYS * 86_400_000) {
      due.push({
        pair,
        zone,
        kind: ReportKind.inactivity,
        period: `since-${last.toISOString()}`,
        days: previousDays(now, zone, INACTIVE_DAYS),
      });
    }
    return due;
  }

  /**
   * Claims the batch's rows (one instance wins each: the unique key), sends what it won, marks the
   * sent ones and gives failed claims back for the next run. A claim is a lease (JOBS_LOCK_LIFETIME_MS,
   * its `created_at` renewed while the batch is mailed): one left `sending` by a process that died is
   * taken again by the next run after it ends.
   */
  private async sendBatch(batch: Due[]): Promise<number> {
    const leaseMs = this.config.JOBS_LOCK_LIFETIME_MS;
    const claims = (await this.em.execute(
      `insert into guardian_reports (id, guardian_id, learner_id, kind, period, status, activity_count, created_at)
       select gen_random_uuid(), c.g, c.l, c.k, c.p, 'sending', 0, now() from jsonb_to_recordset(?::jsonb) as c(g uuid, l uuid, k text, p text)
       on conflict (guardian_id, learner_id, kind, period) do update set created_at = now()
         where guardian_reports.status = 'sending' and guardian_reports.created_at < ?
       returning id, guardian_id, learner_id, kind, period`,
      [
        JSON.stringify(batch.map((d) => ({ g: d.pair.guardian_id, l: d.pair.learner_id, k: d.kind, p: d.period }))),
        new Date(Date.now() - leaseMs),
      ],
    )) as { id: string; guardian_id: string; learner_id: string; kind: string; period: string }[];
    if (!claims.length) return 0;
    const key = (g: string, l: string, k: string, p: string) => `${g}|${l}|${k}|${p}`;
    const ids = new Map(claims.map((c) => [key(c.guardian_id, c.learner_id, c.kind, c.period), c.id]));
    const won = batch.flatMap((d) => {
      const id = ids.get(key(d.pair.guardian_id, d.pair.learner_id, d.kind, d.period));
      return id ? [{ ...d, id }] : [];
    });
    const activity = await this.activityOf(won);
    const sent: { id: string; n: number }[] = [];
    const failed: string[] = [];
    let next = 0;
    // Mails go out REPORTS_CONCURRENCY at a time: each waits on the mail server, not on us.
    const worker = async () => {
      while (next < won.length) {
        const report = won[next++];
        const counts = this.countByDay(activity.get(report.pair.learner_id) ?? [], report.days, report.zone);
        const total = counts.reduce((sum, c) => sum + c.count, 0);
        try {
          await this.uow.deps.mailer.send(this.mail(report.pair, report.kind, report.days, counts, total, report.zone));
          sent.push({ id: report.id, n: total });
        } catch (error) {
          failed.push(report.id);
          this.uow.deps.log.error(
            { err: error, kind: report.kind },
            'guardian report not sent; the next run tries again',
          );
        }
      }
    };
    const renew = () =>
      this.uow.deps.sql.unlogged(
        `update guardian_reports set created_at = now() where id = any(?::uuid[]) and status = 'sending'`,
        [`{${won.map((r) => r.id).join(',')}}`],
      );
    await whileLeased(leaseMs, renew, () =>
      Promise.all(Array.from({ length: Math.min(this.config.REPORTS_CONCURRENCY, won.length) }, worker)),
    );
    if (sent.length) {
      await this.em.execute(
        `update guardian_reports r set status = 'sent', sent_at = now(), activity_count = c.n from jsonb_to_recordset(?::jsonb) as c(id uuid, n integer) where r.id = c.id`,
        [JSON.stringify(sent)],
      );
    }
    if (failed.length) {
      await this.em.execute(
        `delete from guardian_reports where id in (select jsonb_array_elements_text(?::jsonb)::uuid) and status = 'sending'`,
        [JSON.stringify(failed)],
      );
    }
    return sent.length;
  }

  /** Lessons and quizzes of the batch's learners over the days their reports cover, in one statement (progress's view of them). */
  private async activityOf(reports: Due[]): Promise<Map<string, Date[]>> {
    const byLearner = new Map<string, Date[]>();
    if (!reports.length) return byLearner;
    const first = reports.reduce((min, r) => (r.days[0] < min ? r.days[0] : min), reports[0].days[0]);
    const last = reports.reduce((max, r) => (r.days.at(-1)! > max ? r.days.at(-1)! : max), reports[0].days.at(-1)!);
    // A day off either side: local days of any zone fall inside.
    const from = new Date(new Date(`${first}T00:00:00Z`).getTime() - 86_400_000);
    const to = new Date(new Date(`${last}T00:00:00Z`).getTime() + 2 * 86_400_000);
    const learners = JSON.stringify([...new Set(reports.map((r) => r.pair.learner_id))]);
    const rows = (await this.em.execute(
      `with learners as (select jsonb_array_elements_text(?::jsonb)::uuid as id)
       select learner_id, at from learner_activity where learner_id in (select id from learners) and at between ? and ?`,
      [learners, from, to],
    )) as { learner_id: string; at: Date }[];
    for (const row of rows) {
      let list = byLearner.get(row.learner_id);
      if (!list) byLearner.set(row.learner_id, (list = []));
      list.push(new Date(row.at));
    }
    return byLearner;
  }

  private countByDay(at: Date[], days: string[], zone: string): { label: string; count: number }[] {
    const byDay = new Map(days.map((d) => [d, 0]));
    for (const instant of at) {
      const day = localDate(instant, zone);
      if (byDay.has(day)) byDay.set(day, byDay.get(day)! + 1);
    }
    return days.map((d) => ({ label: d.slice(5), count: byDay.get(d)! }));
  }

  private mail(
    pair: Pair,
    kind: ReportKind,
    days: string[],
    counts: { label: string; count: number }[],
    total: number,
    zone: string,
  ): RichMail {
    const t = translator(pair.guardian_locale);
    const learner = pair.learner_name;
    const values = {
      learner,
      from: days[0],
      to: days.at(-1),
      period: days[0].slice(0, 7),
      since: pair.last_activity ? localDate(new Date(pair.last_activity), zone) : '',
    };
    const subject = t(`${kind}.subject`, values);
    const intro = t(`${kind}.intro`, values);
    const activity = t('activity', { count: total });
    const unsubscribe = t('unsubscribe', { url: this.unsubscribeUrl(pair.guardian_id, kind) });
    const png = activityChart(t('chartTitle'), counts);
    const text = `${intro}\n\n${activity}\n\n${unsubscribe}\n`;
    const html = `<p>${escapeHtml(intro)}</p><p>${escapeHtml(activity)}</p><p><img src="cid:activity-chart" alt="${escapeHtml(t('chartTitle'))}" width="600" height="240"></p><p><a href="${escapeHtml(this.unsubscribeUrl(pair.guardian_id, kind))}">${escapeHtml(unsubscribe)}</a></p>`;
    return {
      to: pair.guardian_email,
      subject,
      text,
      html,
      attachments: [{ filename: 'activity.png', content: png, cid: 'activity-chart', contentType: 'image/png' }],
      headers: { 'List-Unsubscribe': `<${this.unsubscribeUrl(pair.guardian_id, kind)}>` },
    };
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
