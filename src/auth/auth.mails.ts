import type { Mail } from '../mail/mailer';
import { defineMessages } from '../mail/messages';
import type { Locale } from './user.entity';

interface Recipient {
  email: string;
  displayName: string;
  locale: Locale;
}

/** The account mails' catalog (namespace `auth`); the code below only fills in names, links and codes. */
const texts = defineMessages('auth', {
  en: {
    verification: {
      subject: 'Confirm your e-mail address',
      text: 'Hello {{name}},\n\nPlease confirm your e-mail address by opening this link:\n{{link}}\n\nOr enter this code in the app: {{token}}\n\nThe link is valid for 48 hours. If you did not sign up, ignore this message.\n',
    },
    passwordReset: {
      subject: 'Reset your password',
      text: 'Hello {{name}},\n\nSomeone asked to reset the password of your account. To choose a new password, open this link:\n{{link}}\n\nOr enter this code in the app: {{token}}\n\nThe link is valid for 1 hour. If it was not you, ignore this message: your password stays as it is.\n',
    },
    guardianInvitation: {
      subject: '{{child}} asks you to be their guardian',
      text: "Hello,\n\n{{child}} ({{childEmail}}) has signed up for our learning platform and named you as their parent or guardian. Children under 13 can start learning once a guardian has signed up, confirmed their e-mail address and linked to the child's account.\n\nTo become their guardian, sign up here:\n{{link}}\n\nIf you do not know this child, ignore this message; the account stays inactive.\n",
    },
  },
  vi: {
    verification: {
      subject: 'Xác nhận địa chỉ e-mail của bạn',
      text: 'Xin chào {{name}},\n\nVui lòng xác nhận địa chỉ e-mail bằng cách mở liên kết sau:\n{{link}}\n\nHoặc nhập mã này trong ứng dụng: {{token}}\n\nLiên kết có hiệu lực trong 48 giờ. Nếu bạn không đăng ký, hãy bỏ qua thư này.\n',
    },
    passwordReset: {
      subject: 'Đặt lại mật khẩu',
      text: 'Xin chào {{name}},\n\nCó người yêu cầu đặt lại mật khẩu cho tài khoản của bạn. Để chọn mật khẩu mới, hãy mở liên kết sau:\n{{link}}\n\nHoặc nhập mã này trong ứng dụng: {{token}}\n\nLiên kết có hiệu lực trong 1 giờ. Nếu không phải bạn, hãy bỏ qua thư này: mật khẩu của bạn vẫn giữ nguyên.\n',
    },
    guardianInvitation: {
      subject: '{{child}} mời bạn làm người giám hộ',
      text: 'Xin chào,\n\n{{child}} ({{childEmail}}) đã đăng ký nền tảng học tập của chúng tôi và ghi tên bạn là cha mẹ hoặc người giám hộ. Trẻ dưới 13 tuổi có thể bắt đầu học khi người giám hộ đã đăng ký, xác nhận e-mail và liên kết với tài khoản của trẻ.\n\nĐể trở thành người giám hộ, hãy đăng ký tại đây:\n{{link}}\n\nNếu bạn không biết trẻ này, hãy bỏ qua thư này; tài khoản sẽ không được kích hoạt.\n',
    },
  },
});

function mail(key: string, locale: Locale, to: string, values: Record<string, string>): Mail {
  const t = texts(locale);
  return { to, subject: t(`${key}.subject`, values), text: t(`${key}.text`, values) };
}

export function verificationMail(user: Recipient, link: string, token: string): Mail {
  return mail('verification', user.locale, user.email, { name: user.displayName, link, token });
}

export function passwordResetMail(user: Recipient, link: string, token: string): Mail {
  return mail('passwordReset', user.locale, user.email, { name: user.displayName, link, token });
}

/** Sent to the address a learner under 13 gave (the guardian has no account yet, so in the child's language): the guardian must sign up and link before the child can learn. */
export function guardianInvitationMail(child: Recipient, guardianEmail: string, link: string): Mail {
  return mail('guardianInvitation', child.locale, guardianEmail, {
    child: child.displayName,
    childEmail: child.email,
    link,
  });
}
