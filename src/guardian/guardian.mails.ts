import { Locale } from '../auth';
import type { Mail } from '../mail/mailer';
import { quotedName } from '../mail/deliver';
import { defineMessages } from '../mail/messages';

/** The guardian mails' catalog (namespace `guardian`). */
const texts = defineMessages('guardian', {
  en: {
    linkRequest: {
      subject: 'A guardian asks to link to your learning account',
      text: 'Hello,\n\n{{guardian}} has asked to be linked to your learning account as your parent or guardian. A guardian can see your progress, courses and certificates, and manage your consents.\n\nTo confirm, open this link (or approve the request in the app):\n{{link}}\n\nOr enter this code in the app: {{token}}\n\nIf you do not know this person, ignore this message; nothing changes.\n',
    },
  },
  vi: {
    linkRequest: {
      subject: 'Một người giám hộ muốn liên kết với tài khoản học tập của bạn',
      text: 'Xin chào,\n\n{{guardian}} muốn liên kết với tài khoản học tập của bạn với tư cách cha mẹ hoặc người giám hộ. Người giám hộ có thể xem tiến độ, khóa học, chứng chỉ và quản lý các sự đồng ý của bạn.\n\nĐể xác nhận, hãy mở liên kết sau (hoặc chấp nhận yêu cầu trong ứng dụng):\n{{link}}\n\nHoặc nhập mã này trong ứng dụng: {{token}}\n\nNếu bạn không biết người này, hãy bỏ qua thư này; không có gì thay đổi.\n',
    },
  },
});

/**
 * Sent to the learner's address a guardian declared, in the learner's language: following the link
 * confirms it. The guardian's display name is theirs to choose: the text quotes it, the subject
 * does not carry it (a subject is what a stranger's free text would pass for the platform's).
 */
export function linkRequestMail(to: string, locale: Locale, guardianName: string, link: string, token: string): Mail {
  const t = texts(locale);
  const values = { guardian: quotedName(guardianName), link, token };
  return { to, subject: t('linkRequest.subject', values), text: t('linkRequest.text', values) };
}

export { Locale };
