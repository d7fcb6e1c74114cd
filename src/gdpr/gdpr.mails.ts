import type { Mail } from '../mail/mailer';

type Lang = 'en' | 'vi';
const lang = (locale: string | null | undefined): Lang => (locale === 'vi' ? 'vi' : 'en');

export function exportReadyMail(to: string, locale: string, name: string, url: string, expiresAt: Date): Mail {
  return lang(locale) === 'vi'
    ? {
        to,
        subject: 'Dữ liệu của bạn đã sẵn sàng để tải về',
        text: `Xin chào,\n\nBản sao dữ liệu của ${name} đã sẵn sàng. Tải về tại:\n${url}\n\nLiên kết hết hạn lúc ${expiresAt.toISOString()}.\n`,
      }
    : {
        to,
        subject: 'Your data export is ready',
        text: `Hello,\n\nThe copy of ${name}'s data is ready. Download it here:\n${url}\n\nThe link expires at ${expiresAt.toISOString()}.\n`,
      };
}

export function deletionScheduledMail(to: string, locale: string, name: string, dueAt: Date): Mail {
  return lang(locale) === 'vi'
    ? { to, subject: 'Yêu cầu xoá tài khoản đã được ghi nhận', text: `Tài khoản của ${name} sẽ bị xoá lúc ${dueAt.toISOString()}. Bạn có thể huỷ trước thời điểm đó.\n` }
    : { to, subject: 'Account erasure scheduled', text: `${name}'s account will be erased at ${dueAt.toISOString()}. You can cancel until then.\n` };
}

export function erasureReceiptMail(to: string, locale: string, name: string, requestId: string): Mail {
  return lang(locale) === 'vi'
    ? {
        to,
        subject: 'Biên nhận xoá dữ liệu',
        text: `Dữ liệu cá nhân của ${name} đang được xoá (yêu cầu ${requestId}). Các hồ sơ pháp luật yêu cầu lưu giữ (sổ đồng ý, sổ cái) được giữ dưới một bí danh.\n`,
      }
    : {
        to,
        subject: 'Receipt: your data is being erased',
        text: `${name}'s personal data is being erased (request ${requestId}). Records the law makes us keep (the consent ledger, the ledger) stay under a pseudonym.\n`,
      };
}

/** The README of the archive, in the subject's language. */
export function exportReadme(locale: string, files: string[]): string {
  return lang(locale) === 'vi'
    ? `BẢN SAO DỮ LIỆU CÁ NHÂN\n\nTệp manifest.json liệt kê mọi tệp kèm mã SHA-256 để kiểm tra.\nMỗi tệp <khu vực>.json chứa dữ liệu của một phần của nền tảng; thư mục certificates/ chứa chứng chỉ PDF.\n\nTệp:\n${files.map((f) => `- ${f}`).join('\n')}\n`
    : `PERSONAL DATA EXPORT\n\nmanifest.json lists every file with its SHA-256 so you can check it.\nEach <area>.json holds the data of one part of the platform; certificates/ holds your certificate PDFs.\n\nFiles:\n${files.map((f) => `- ${f}`).join('\n')}\n`;
}
