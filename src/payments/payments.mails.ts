import type { Locale } from '../auth';
import { quotedName } from '../mail/deliver';
import type { Mail } from '../mail/mailer';
import { formatMoney as formatIn } from '../kernel/money';
import type { Localized } from '../kernel/localized';

/** Minor units as people read them (199000 VND is 199.000 ₫, 799 USD is $7.99), as the pages write them. */
export function formatMoney(amount: number, currency: string, locale: Locale): string {
  return formatIn(amount, currency, locale === 'vi' ? 'vi-VN' : 'en-US');
}

/** To each active guardian of a learner under 18 who asked to buy something. The learner's chosen name is quoted in the text, never in the subject. */
export function purchaseRequestMail(
  to: string,
  locale: Locale,
  displayName: string,
  title: Localized,
  amount: number,
  currency: string,
  link: string,
): Mail {
  const price = formatMoney(amount, currency, locale);
  const learnerName = quotedName(displayName);
  const texts = {
    en: {
      subject: `A purchase request for ${title.en}`,
      text: `Hello,\n\n${learnerName} asks you to buy "${title.en}" (${price}) for them on the learning platform. Learners under 18 never pay themselves: nothing is charged unless you approve and pay.\n\nApprove or decline it in your purchase requests:\n${link}\n\nIf you do not recognise this request, decline it; nothing changes.\n`,
    },
    vi: {
      subject: `Yêu cầu mua ${title.vi}`,
      text: `Xin chào,\n\n${learnerName} xin bạn mua "${title.vi}" (${price}) trên nền tảng học tập. Học viên dưới 18 tuổi không tự thanh toán: không có khoản phí nào trừ khi bạn duyệt và thanh toán.\n\nHãy duyệt hoặc từ chối trong mục yêu cầu mua:\n${link}\n\nNếu bạn không nhận ra yêu cầu này, hãy từ chối; không có gì thay đổi.\n`,
    },
  };
  return { to, ...texts[locale] };
}
