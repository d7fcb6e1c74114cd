import { inflateSync } from 'node:zlib';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendDueReports } from '../../src/guardian-reports';
import { contentAdmin, publishedCourse } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { linkFamily, withBasicData } from '../support/family';
import type { SmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, verifiedGuardian } from '../support/users';

/** An SMTP sink that keeps whole parsed mails (attachments too). */
async function richSmtp() {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => (received.push(mail), callback()), callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  const plain = (m: ParsedMail) => ({
    to: [m.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? '')),
    subject: m.subject ?? '',
    text: m.text ?? '',
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The helpers' view of the sink (sign-up verification mails). */
    asPlain: {
      async waitFor(address: string, subject: RegExp = /./, timeoutMs = 5000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const mail = received.map(plain).find((m) => m.to.includes(address) && subject.test(m.subject));
          if (mail) return mail;
          if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
          await new Promise((r) => setTimeout(r, 25));
        }
      },
    } as unknown as SmtpServer,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let t: TestApp;
let second: TestApp;
let mails: Awaited<ReturnType<typeof richSmtp>>;
let smtp: SmtpServer;
/** A statement on the database that keeps this account's rows: its home region's. */
const sqlOf = async (accountId: string, q: string, p: unknown[]) => (await homeOf(t, accountId)).sql.unlogged(q, p);
/** Report mails to a person (the ones with the chart), not their account mails. */
const to = (who: SignedIn) =>
  mails.received.filter(
    (m) =>
      [m.to ?? []].flat().some((a) => a.value.some((v) => v.address === who.email)) &&
      m.attachments.some((a) => a.cid === 'activity-chart'),
  );
const settle = () => new Promise((r) => setTimeout(r, 300));

beforeAll(async () => {
  mails = await richSmtp();
  smtp = mails.asPlain;
  t = await startTestApp({ SMTP_URL: mails.url });
  second = await startTestApp({ SMTP_URL: mails.url }, t.databaseUrl);
});
afterAll(async () => {
  await second.close();
  await t.close();
  await mails.close();
});

/** A guardian in Viet Nam (Vietnamese) with learners whose activity happened at the given times. */
async function family(learners: number, overrides: Record<string, unknown> = {}) {
  const guardian = await verifiedGuardian(t, smtp, { locale: 'vi', country: 'VN', ...overrides });
  const kids: SignedIn[] = [];
  const editor = await contentAdmin(t);
  const course = await publishedCourse(t, editor);
  for (let i = 0; i < learners; i++) {
    // A family lives in one region: the kids of the guardian's country.
    const kid = await withBasicData(
      t,
      await learnerOfAge(t, 14, { displayName: `Kid ${i} ${Date.now()}`, country: guardian.user.country }),
    );
    await linkFamily(t, guardian, kid);
    await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: kid.accessToken });
    kids.push(kid);
  }
  return { guardian, kids, lessonIds: course.lessonIds };
}

async function activityAt(kid: SignedIn, lessonIds: string[], at: Date) {
  for (const lessonId of lessonIds) {
    await t.http.post(`/progress/lessons/${lessonId}/quiz`, { answers: [1, 0] }, { token: kid.accessToken });
    await t.http.post(`/progress/lessons/${lessonId}/complete`, undefined, { token: kid.accessToken });
  }
  await sqlOf(
    kid.id,
    `update lesson_completions set completed_at = ? where learner_id = ? and completed_at > now() - interval '1 hour'`,
    [at, kid.id],
  );
  await sqlOf(
    kid.id,
    `update quiz_attempts set created_at = ? where learner_id = ? and created_at > now() - interval '1 hour'`,
    [at, kid.id],
  );
}

/** Decodes a PNG (8-bit grey, RGB or RGBA, any row filter) with zlib: its size and the colour of a pixel. */
function decodePng(png: Buffer): {
  width: number;
  height: number;
  rgb: (x: number, y: number) => [number, number, number];
} {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
      expect(data[8]).toBe(8);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]];
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  expect(raw.length).toBe(height * (stride + 1));
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= channels ? pixels[y * stride + i - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = y > 0 && i >= channels ? pixels[(y - 1) * stride + i - channels] : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      pixels[y * stride + i] = (x + [0, a, b, (a + b) >> 1, paeth][filter]) & 0xff;
    }
  }
  const rgb = (x: number, y: number): [number, number, number] => {
    const at = y * stride + x * channels;
    return channels < 3 ? [pixels[at], pixels[at], pixels[at]] : [pixels[at], pixels[at + 1], pixels[at + 2]];
  };
  return { width, height, rgb };
}

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString()).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('guardian reports', () => {
  beforeEach(() => {
    mails.received.length = 0;
  });

  it('weekly on Monday morning in the guardian’s zone and language: one mail per learner with two instances running at once, a chart PNG, an unsubscribe link; listed; toggles respected', async () => {
    const { guardian, kids, lessonIds } = await family(2);
    await activityAt(kids[0], lessonIds, new Date('2026-11-18T05:00:00Z'));
    await activityAt(kids[1], lessonIds, new Date('2026-11-20T05:00:00Z'));

    // Sunday evening in Viet Nam: nothing yet. Monday 09:00 (02:00 UTC): due.
    await Promise.all([
      sendDueReports(t.app.deps, new Date('2026-11-22T12:00:00Z')),
      sendDueReports(second.app.deps, new Date('2026-11-22T12:00:00Z')),
    ]);
    await settle();
    expect(to(guardian)).toHaveLength(0);
    const monday = new Date('2026-11-23T02:00:00Z');
    await Promise.all([
      sendDueReports(t.app.deps, monday),
      sendDueReports(second.app.deps, monday),
      sendDueReports(t.app.deps, monday),
    ]);
    await settle();
    const weekly = to(guardian);
    expect(weekly).toHaveLength(2);
    for (const mail of weekly) {
      expect(mail.subject).toMatch(/^Tuần học của Kid/);
      expect(mail.text).toContain('4 bài học và bài kiểm tra');
      expect(mail.text).toContain('2026-11-16');
      const chart = mail.attachments.find((a) => a.contentType === 'image/png')!;
      expect(chart.cid).toBe('activity-chart');
      expect(mail.html).toMatch(/<img src="(cid:activity-chart|data:image\/png;base64,)/); // mailparser inlines the cid
      expect(pngSize(chart.content)).toEqual({ width: 600, height: 240 });
      // Decoded: one learner was active on one day of the seven, so one bar (blue, #3b82f6) stands in the middle of the plot, the other days are white.
      const image = decodePng(chart.content);
      const bars = [0, 1, 2, 3, 4, 5, 6].filter((day) => image.rgb(30 + day * 80 + 40, 120).join() === '59,130,246');
      expect(bars).toHaveLength(1);
      expect(image.rgb(30 + ((bars[0] + 1) % 7) * 80 + 40, 120)).toEqual([255, 255, 255]);
    }
    // The same Monday later: nothing again.
    await sendDueReports(t.app.deps, new Date('2026-11-23T06:00:00Z'));
    await settle();
    expect(to(guardian)).toHaveLength(2);

    const list = await t.http.get('/guardian/reports', { token: guardian.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: any) => `${r.kind}:${r.period}:${r.activityCount}`).sort()).toEqual([
      'weekly:2026-W47:4',
      'weekly:2026-W47:4',
    ]);
    const gql = await t.http.gql(
      '{ guardianReports { edges { node { kind learnerId } } } }',
      undefined,
      guardian.accessToken,
    );
    expect(gql.body.data.guardianReports.edges).toHaveLength(2);
    expect((await t.http.get('/guardian/reports', { token: kids[0].accessToken })).status).toBe(403);
    expect((await t.http.get('/guardian/reports')).status).toBe(401);

    // The unsubscribe link turns weekly mails off; a tampered one is refused.
    const link = new URL(/https?:\/\/\S+unsubscribe\S+/.exec(weekly[0].text!)![0]);
    const tampered = await fetch(
      `${t.url}${link.pathname}?${link.searchParams.toString().replace('kind=weekly', 'kind=monthly')}`,
    );
    expect(tampered.status).toBe(403);
    expect((await fetch(`${t.url}${link.pathname}${link.search}`)).status).toBe(200);
    // The toggles live in the notification settings (docs/domain.md#privacy-operations); the old path is gone.
    const settings = await t.http.get('/notifications/settings', { token: guardian.accessToken });
    expect(settings.body).toEqual({
      disabledTypes: [],
      weeklyReport: false,
      monthlyReport: true,
      inactivityAlert: true,
    });
    expect((await t.http.get('/guardian/reports/settings', { token: guardian.accessToken })).status).toBe(404);
    await sendDueReports(t.app.deps, new Date('2026-11-30T02:00:00Z'));
    await settle();
    expect(to(guardian).filter((m) => /Tuần/.test(m.subject!))).toHaveLength(2);

    // Monthly on the 1st (Viet Nam morning), for November; off after the toggle.
    await sendDueReports(t.app.deps, new Date('2026-12-01T02:00:00Z'));
    await settle();
    expect(to(guardian).filter((m) => /Tháng học/.test(m.subject!))).toHaveLength(2);
    const put = await t.http.put('/notifications/settings', { monthlyReport: false }, { token: guardian.accessToken });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ disabledTypes: [], weeklyReport: false, monthlyReport: false, inactivityAlert: true });
    const bad = await t.http.put('/notifications/settings', { monthlyReport: 'no' }, { token: guardian.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_failed');
    expect(bad.body.details[0].field).toMatch(/monthlyReport/);
    expect((await t.http.put('/notifications/settings', { monthlyReport: true })).status).toBe(401);
    await sendDueReports(t.app.deps, new Date('2027-01-01T02:00:00Z'));
    await settle();
    expect(to(guardian).filter((m) => /Tháng học/.test(m.subject!))).toHaveLength(2);
  });

  it('an inactivity alert on day 7, not again on day 8; active again then 7 days idle: a new alert; in English for an English guardian', async () => {
    const { guardian, kids, lessonIds } = await family(1, { locale: 'en', country: 'US' });
    // The GraphQL twin of PUT /notifications/settings turns the other reports off; the inactivity alert stays on.
    const toggles = await t.http.gql(
      'mutation { updateNotificationSettings(input: { weeklyReport: false, monthlyReport: false }) { disabledTypes weeklyReport monthlyReport inactivityAlert } }',
      {},
      guardian.accessToken,
    );
    expect(toggles.body.data.updateNotificationSettings).toEqual({
      disabledTypes: [],
      weeklyReport: false,
      monthlyReport: false,
      inactivityAlert: true,
    });
    expect(
      (await t.http.gql('{ notificationSettings { weeklyReport inactivityAlert } }', {}, guardian.accessToken)).body
        .data.notificationSettings,
    ).toEqual({
      weeklyReport: false,
      inactivityAlert: true,
    });
    const t0 = new Date('2026-11-10T15:00:00Z');
    await activityAt(kids[0], lessonIds, t0);
    const at = (days: number, hours = 0) => new Date(t0.getTime() + days * 86_400_000 + hours * 3_600_000);
    await sendDueReports(t.app.deps, at(6, 23));
    await settle();
    expect(to(guardian)).toHaveLength(0);
    await Promise.all([sendDueReports(t.app.deps, at(7, 1)), sendDueReports(second.app.deps, at(7, 1))]);
    await settle();
    expect(to(guardian)).toHaveLength(1);
    expect(to(guardian)[0].subject).toMatch(/has not learned for 7 days/);
    await sendDueReports(t.app.deps, at(8));
    await settle();
    expect(to(guardian)).toHaveLength(1);
    // Active again on day 9, then idle: a new spell, a new alert on day 16.
    await activityAt(kids[0], lessonIds.slice(0, 1), at(9));
    await sendDueReports(t.app.deps, at(12));
    await settle();
    expect(to(guardian)).toHaveLength(1);
    await sendDueReports(t.app.deps, at(16, 1));
    await settle();
    expect(to(guardian)).toHaveLength(2);
    // Turned off in the notification settings: the next spell brings no alert.
    expect(
      (await t.http.put('/notifications/settings', { inactivityAlert: false }, { token: guardian.accessToken })).status,
    ).toBe(200);
    await activityAt(kids[0], lessonIds.slice(0, 1), at(17));
    await sendDueReports(t.app.deps, at(25));
    await settle();
    expect(to(guardian)).toHaveLength(2);
  });
});
