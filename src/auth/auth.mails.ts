import type { Mail } from '../mail/mailer';
import { Locale } from './user.entity';

interface Recipient {
  email: string;
  displayName: string;
  locale: Locale;
}

type Texts = Record<Locale, { subject: string; text: string }>;

function pick(texts: Texts, locale: Locale, to: string): Mail {
  return { to, ...texts[locale] };
}

export function verificationMail(user: Recipient, link: string, token: string): Mail {
  return pick(
    {
      en: {
        subject: 'Confirm your e-mail address',
        text: `Hello ${user.displayName},\n\nPlease confirm your e-mail address by opening this link:\n${link}\n\nOr enter this code in the app: ${token}\n\nThe link is valid for 48 hours. If you did not sign up, ignore this message.\n`,
      },
      vi: {
        subject: 'Xác nhận địa chỉ e-mail của bạn',
        text: `Xin chào ${user.displayName},\n\nVui lòng xác nhận địa chỉ e-mail bằng cách mở liên kết sau:\n${link}\n\nHoặc nhập mã này trong ứng dụng: ${token}\n\nLiên kết có hiệu lực trong 48 giờ. Nếu bạn không đăng ký, hãy bỏ qua thư này.\n`,
      },
    },
    user.locale,
    user.email,
  );
}

export function passwordResetMail(user: Recipient, link: string, token: string): Mail {
  return pick(
    {
      en: {
        subject: 'Reset your password',
        text: `Hello ${user.displayName},\n\nSomeone asked to reset the password of your account. To choose a new password, open this link:\n${link}\n\nOr enter this code in the app: ${token}\n\nThe link is valid for 1 hour. If it was not you, ignore this message: your password stays as it is.\n`,
      },
      vi: {
        subject: 'Đặt lại mật khẩu',
        text: `Xin chào ${user.displayName},\n\nCó người yêu cầu đặt lại mật khẩu cho tài khoản của bạn. Để chọn mật khẩu mới, hãy mở liên kết sau:\n${link}\n\nHoặc nhập mã này trong ứng dụng: ${token}\n\nLiên kết có hiệu lực trong 1 giờ. Nếu không phải bạn, hãy bỏ qua thư này: mật khẩu của bạn vẫn giữ nguyên.\n`,
      },
    },
    user.locale,
    user.email,
  );
}

/** Sent to the address a learner under 13 gave: the guardian must sign up and link before the child can learn. */
export function guardianInvitationMail(child: Recipient, guardianEmail: string, link: string): Mail {
  return pick(
    {
      en: {
        subject: `${child.displayName} asks you to be their guardian`,
        text: `Hello,\n\n${child.displayName} (${child.email}) has signed up for our learning platform and named you as their parent or guardian. Children under 13 can start learning once a guardian has signed up, confirmed their e-mail address and linked to the child's account.\n\nTo become their guardian, sign up here:\n${link}\n\nIf you do not know this child, ignore this message; the account stays inactive.\n`,
      },
      vi: {
        subject: `${child.displayName} mời bạn làm người giám hộ`,
        text: `Xin chào,\n\n${child.displayName} (${child.email}) đã đăng ký nền tảng học tập của chúng tôi và ghi tên bạn là cha mẹ hoặc người giám hộ. Trẻ dưới 13 tuổi có thể bắt đầu học khi người giám hộ đã đăng ký, xác nhận e-mail và liên kết với tài khoản của trẻ.\n\nĐể trở thành người giám hộ, hãy đăng ký tại đây:\n${link}\n\nNếu bạn không biết trẻ này, hãy bỏ qua thư này; tài khoản sẽ không được kích hoạt.\n`,
      },
    },
    child.locale,
    guardianEmail,
  );
}
