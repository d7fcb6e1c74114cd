import type { Mail } from '../mail/mailer';
import { defineMessages, mailLanguage } from '../mail/messages';

/** The privacy mails' and the archive README's catalog (namespace `gdpr`). */
const texts = defineMessages('gdpr', {
  en: {
    exportReady: {
      subject: 'Your data export is ready',
      text: "Hello,\n\nThe copy of {{name}}'s data is ready. Download it here:\n{{url}}\n\nThe link expires at {{expiresAt}}.\n",
    },
    deletionScheduled: {
      subject: 'Account erasure scheduled',
      text: "{{name}}'s account will be erased at {{dueAt}}. You can cancel until then.\n",
    },
    erasureReceipt: {
      subject: 'Receipt: your data is being erased',
      text: "{{name}}'s personal data is being erased (request {{requestId}}). Records the law makes us keep (the consent ledger, the ledger) stay under a pseudonym.\n",
    },
    readme: {
      file: 'README.txt',
      text: 'PERSONAL DATA EXPORT\n\nmanifest.json lists every file with its SHA-256 so you can check it.\nEach <area>.json holds the data of one part of the platform; certificates/ holds your certificate PDFs.\n\nFiles:\n{{files}}\n',
    },
  },
  vi: {
    exportReady: {
      subject: 'Dữ liệu của bạn đã sẵn sàng để tải về',
      text: 'Xin chào,\n\nBản sao dữ liệu của {{name}} đã sẵn sàng. Tải về tại:\n{{url}}\n\nLiên kết hết hạn lúc {{expiresAt}}.\n',
    },
    deletionScheduled: {
      subject: 'Yêu cầu xoá tài khoản đã được ghi nhận',
      text: 'Tài khoản của {{name}} sẽ bị xoá lúc {{dueAt}}. Bạn có thể huỷ trước thời điểm đó.\n',
    },
    erasureReceipt: {
      subject: 'Biên nhận xoá dữ liệu',
      text: 'Dữ liệu cá nhân của {{name}} đang được xoá (yêu cầu {{requestId}}). Các hồ sơ pháp luật yêu cầu lưu giữ (sổ đồng ý, sổ cái) được giữ dưới một bí danh.\n',
    },
    readme: {
      file: 'README.vi.txt',
      text: 'BẢN SAO DỮ LIỆU CÁ NHÂN\n\nTệp manifest.json liệt kê mọi tệp kèm mã SHA-256 để kiểm tra.\nMỗi tệp <khu vực>.json chứa dữ liệu của một phần của nền tảng; thư mục certificates/ chứa chứng chỉ PDF.\n\nTệp:\n{{files}}\n',
    },
  },
});

function mail(key: string, locale: string, to: string, values: Record<string, string>): Mail {
  const t = texts(locale);
  return { to, subject: t(`${key}.subject`, values), text: t(`${key}.text`, values) };
}

export function exportReadyMail(to: string, locale: string, name: string, url: string, expiresAt: Date): Mail {
  return mail('exportReady', locale, to, { name, url, expiresAt: expiresAt.toISOString() });
}

export function deletionScheduledMail(to: string, locale: string, name: string, dueAt: Date): Mail {
  return mail('deletionScheduled', locale, to, { name, dueAt: dueAt.toISOString() });
}

export function erasureReceiptMail(to: string, locale: string, name: string, requestId: string): Mail {
  return mail('erasureReceipt', locale, to, { name, requestId });
}

/** The README of the archive, in the subject's language, and its file name. */
export function exportReadme(locale: string, files: string[]): string {
  return texts(locale)('readme.text', { files: files.map((f) => `- ${f}`).join('\n') });
}

export const readmeFile = (locale: string): string => texts(mailLanguage(locale))('readme.file');
