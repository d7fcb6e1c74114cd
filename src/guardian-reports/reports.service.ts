import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { apiBase } from '../gdpr';
import { afterCursor, type Page, toPage } from '../kernel/pagination';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Mail } from '../mail/mailer';
import type { Services } from '../kernel/services';
import { GuardianReport, ReportKind } from './report.entity';
import { activityChart } from './reports.chart';
import { translator } from './reports.i18n';
import { isoWeek, localDate, localTime, previousDays, timeZoneOf } from './reports.time';

/** Reports are due from this local hour on (Monday morning, the 1st in the morning). */
const MORNING_HOUR = 8;
const INACTIVE_DAYS = 7;
const RESEND_AFTER_MS = 10 * 60_000;

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

/** A mail with an inline image; nodemailer takes these fields as they are. */
type RichMail = Mail & { html: string; attachments: { filename: string; content: Buffer; cid: string; contentType: string }[]; headers: Record<string, string> };

/**
 * Guardian e-mail reports (DESIGN.md 4.7): weekly on Monday morning, monthly on the 1st, and an
 * alert after 7 days without activity (once per inactive spell), in the guardian's language and
 * country time zone, with a chart of the period as an inline PNG.
 */
export class ReportsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: Services,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  private get config() {
    return this.uow.deps.config;
  }

  async list(guardianId: string, first: number, after?: string | null): Promise<Page<GuardianReport>> {
    const rows = await this.em.find(GuardianReport, { $and: [{ guardian: guardianId, status: 'sent' }, afterCursor(after)] }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: first + 1 });
    return toPage(rows, first);
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
    const field = ({ weekly: 'weeklyReport', monthly: 'monthlyReport', inactivity: 'inactivityAlert' } as const)[kind as ReportKind];
    await this.services.notifications.updateSettings(guardianId, { [field]: false });
    return true;
  }

  private sign(guardianId: string, kind: string): string {
    return createHmac('sha256', this.config.JWT_SECRET).update(`report-unsubscribe:${guardianId}:${kind}`).digest('base64url');
  }

  /** Sends every report due at `now`; how many mails it sent. Safe to run on several instances at once. */
  async run(now = new Date()): Promise<number> {
    const pairs = (await this.em.execute(
      `select gl.guardian_id, g.email as guardian_email, g.locale as guardian_locale, g.country as guardian_country,
              gl.learner_id, l.display_name as learner_name, s.weekly_report, s.monthly_report, s.inactivity_alert,
              (select max(at) from (select max(completed_at) as at from lesson_completions where learner_id = gl.learner_id
                                    union all select max(created_at) from quiz_attempts where learner_id = gl.learner_id) a) as last_activity
         from guardian_links gl
         join users g on g.id = gl.guardian_id and g.status = 'active'
         join users l on l.id = gl.learner_id and l.status not in ('deletion_pending', 'erased')
         left join notification_settings s on s.user_id = gl.guardian_id
        where gl.status = 'active'`,
    )) as Pair[];
    let sent = 0;
    // Mails go out REPORTS_CONCURRENCY at a time: each waits on the mail server, not on us.
    let next = 0;
    const worker = async () => {
      while (next < pairs.length) {
        const count = await this.sendDue(pairs[next++], now);
        sent += count;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.config.REPORTS_CONCURRENCY, pairs.length) }, worker));
    return sent;
  }

  /** The reports due for one guardian and learner at `now`; how many mails it sent. */
  private async sendDue(pair: Pair, now: Date): Promise<number> {
    let sent = 0;
    const zone = timeZoneOf(pair.guardian_country);
    const local = localTime(now, zone);
    const due: { kind: ReportKind; period: string; days: string[] }[] = [];
    if (pair.weekly_report !== false && local.weekday === 1 && local.hour >= MORNING_HOUR) {
      const days = previousDays(now, zone, 7);
      const [y, m, d] = days[6].split('-').map(Number);
      due.push({ kind: ReportKind.weekly, period: isoWeek(y, m, d), days });
    }
    if (pair.monthly_report !== false && local.day === 1 && local.hour >= MORNING_HOUR) {
      const previous = new Date(Date.UTC(local.year, local.month - 2, 1));
      const length = new Date(Date.UTC(local.year, local.month - 1, 0)).getUTCDate();
      due.push({ kind: ReportKind.monthly, period: previous.toISOString().slice(0, 7), days: previousDays(now, zone, length) });
    }
    const last = pair.last_activity ? new Date(pair.last_activity) : null;
    if (pair.inactivity_alert !== false && last && now.getTime() - last.getTime() >= INACTIVE_DAYS * 86_400_000) {
      due.push({ kind: ReportKind.inactivity, period: `since-${last.toISOString()}`, days: previousDays(now, zone, INACTIVE_DAYS) });
    }
    for (const report of due) if (await this.send(pair, report.kind, report.period, report.days, zone, now)) sent++;
    return sent;
  }

  /** Claims the period's row (one instance wins), sends, marks it sent; a failed send gives the claim back for the next run. */
  private async send(pair: Pair, kind: ReportKind, period: string, days: string[], zone: string, now: Date): Promise<boolean> {
    const claimed = (await this.em.execute(
      `insert into guardian_reports (id, guardian_id, learner_id, kind, period, status, activity_count, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?, 'sending', 0, now())
       on conflict (guardian_id, learner_id, kind, period) do update set created_at = now()
         where guardian_reports.status = 'sending' and guardian_reports.created_at < ?
       returning id`,
      [pair.guardian_id, pair.learner_id, kind, period, new Date(Date.now() - RESEND_AFTER_MS)],
    )) as { id: string }[];
    if (!claimed.length) return false;
    const id = claimed[0].id;
    try {
      const counts = await this.activityByDay(pair.learner_id, days, zone);
      const total = counts.reduce((sum, c) => sum + c.count, 0);
      await this.uow.deps.mailer.send(this.mail(pair, kind, days, counts, total, now, zone));
      await this.em.execute(`update guardian_reports set status = 'sent', sent_at = now(), activity_count = ? where id = ?`, [total, id]);
      return true;
    } catch (error) {
      await this.em.execute(`delete from guardian_reports where id = ? and status = 'sending'`, [id]);
      this.uow.deps.log.error({ err: error, kind }, 'guardian report not sent; the next run tries again');
      return false;
    }
  }

  private async activityByDay(learnerId: string, days: string[], zone: string): Promise<{ label: string; count: number }[]> {
    const from = new Date(`${days[0]}T00:00:00Z`).getTime() - 86_400_000;
    const to = new Date(`${days.at(-1)}T00:00:00Z`).getTime() + 2 * 86_400_000;
    const rows = (await this.em.execute(
      `select completed_at as at from lesson_completions where learner_id = ? and completed_at between ? and ?
       union all select created_at from quiz_attempts where learner_id = ? and created_at between ? and ?`,
      [learnerId, new Date(from), new Date(to), learnerId, new Date(from), new Date(to)],
    )) as { at: Date }[];
    const byDay = new Map(days.map((d) => [d, 0]));
    for (const row of rows) {
      const day = localDate(new Date(row.at), zone);
      if (byDay.has(day)) byDay.set(day, byDay.get(day)! + 1);
    }
    return days.map((d) => ({ label: d.slice(5), count: byDay.get(d)! }));
  }

  private mail(pair: Pair, kind: ReportKind, days: string[], counts: { label: string; count: number }[], total: number, now: Date, zone: string): RichMail {
    const t = translator(pair.guardian_locale);
    const learner = pair.learner_name;
    const values = { learner, from: days[0], to: days.at(-1), period: days[0].slice(0, 7), since: pair.last_activity ? localDate(new Date(pair.last_activity), zone) : '' };
    const subject = t(`${kind}.subject`, values);
    const intro = t(`${kind}.intro`, values);
    const activity = t('activity', { count: total });
    const unsubscribe = t('unsubscribe', { url: this.unsubscribeUrl(pair.guardian_id, kind) });
    const png = activityChart(t('chartTitle'), counts);
    const text = `${intro}\n\n${activity}\n\n${unsubscribe}\n`;
    const html = `<p>${escapeHtml(intro)}</p><p>${escapeHtml(activity)}</p><p><img src="cid:activity-chart" alt="${escapeHtml(t('chartTitle'))}" width="600" height="240"></p><p><a href="${escapeHtml(this.unsubscribeUrl(pair.guardian_id, kind))}">${escapeHtml(unsubscribe)}</a></p>`;
    void now;
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
