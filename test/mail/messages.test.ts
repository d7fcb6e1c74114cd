import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogKeys, mailNamespaces, mailText } from '../../src/mail/messages';
import { startTestApp, type TestApp } from '../support/app';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, learnerOfAge, signUp, uniqueEmail, verifiedGuardian } from '../support/users';

/** Mail texts come from the i18next catalogs, in the recipient's language: account and guardian mails as well as reports. */
let smtp: SmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('mail catalogs', () => {
  it('hold every mail of the account, guardian, privacy, contact and report areas, each key in Vietnamese and English', () => {
    expect(mailNamespaces().sort()).toEqual(expect.arrayContaining(['auth', 'contact', 'gdpr', 'guardian', 'reports']));
    for (const namespace of mailNamespaces()) {
      const en = [...new Set(catalogKeys(namespace, 'en'))].sort();
      expect(en.length, namespace).toBeGreaterThan(0);
      expect([...new Set(catalogKeys(namespace, 'vi'))].sort(), namespace).toEqual(en);
    }
    expect(catalogKeys('auth', 'en')).toEqual(
      expect.arrayContaining(['verification.subject', 'passwordReset.text', 'guardianInvitation.subject']),
    );
    expect(catalogKeys('guardian', 'vi')).toEqual(expect.arrayContaining(['linkRequest.subject', 'linkRequest.text']));
  });

  it('write the verification and password-reset mails in the account’s language', async () => {
    for (const locale of ['vi', 'en']) {
      const name = `Người dùng ${locale}`;
      const user = await signUp(t, adultSignup({ locale, displayName: name }));
      const verification = await smtp.waitFor(
        user.email,
        new RegExp(mailText('auth', locale, 'verification.subject')),
        10_000,
      );
      expect(
        verification.text.startsWith(
          mailText('auth', locale, 'verification.text', { name, link: '@@' }).split('@@')[0],
        ),
      ).toBe(true);
      await t.http.post('/auth/forgot-password', { email: user.email });
      const reset = await smtp.waitFor(
        user.email,
        new RegExp(mailText('auth', locale, 'passwordReset.subject')),
        10_000,
      );
      expect(reset.text).toContain(mailText('auth', locale, 'passwordReset.text', { name, link: '@@' }).split('@@')[0]);
    }
    expect(mailText('auth', 'vi', 'verification.subject')).toBe('Xác nhận địa chỉ e-mail của bạn');
    expect(mailText('auth', 'fr', 'verification.subject')).toBe('Confirm your e-mail address');
  });

  it('write a guardian invitation and a link request in the learner’s language', async () => {
    const parent = uniqueEmail('parent');
    const child = await learnerOfAge(t, 10, { locale: 'vi', displayName: 'Bé Na', guardianEmail: parent });
    const invitation = await smtp.waitFor(parent, /./, 10_000);
    expect(invitation.subject).toBe(mailText('auth', 'vi', 'guardianInvitation.subject', { child: 'Bé Na' }));
    expect(invitation.text).toContain(child.email);

    const guardian = await verifiedGuardian(t, smtp, { locale: 'en', displayName: 'Minh Tran' });
    const learner = await learnerOfAge(t, 15, { locale: 'vi' });
    expect(
      (await t.http.post('/guardian/declare', { learnerEmail: learner.email }, { token: guardian.accessToken })).status,
    ).toBeLessThan(300);
    const request = await smtp.waitFor(learner.email, /giám hộ/, 10_000);
    expect(request.subject).toBe(mailText('guardian', 'vi', 'linkRequest.subject'));
    // The guardian's chosen name is in the text, quoted, never in the subject.
    expect(request.subject).toBe('Một người giám hộ muốn liên kết với tài khoản học tập của bạn');
    expect(request.text).toContain('“Minh Tran”');
  });
});
