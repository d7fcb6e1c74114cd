import type { Mail } from '../mail/mailer';
import { defineMessages } from '../mail/messages';
import type { ContactMessage } from './contact-message.entity';

/** The contact mails' catalog (namespace `contact`); the forward to the platform's inbox is in English. */
const texts = defineMessages('contact', {
  en: {
    acknowledgement: {
      subject: 'We received your message',
      text: 'Hello,\n\nThank you for writing to us. We received your message and will answer as soon as we can.\n\nReference: {{id}}\n\nIf you did not write to us, you can ignore this e-mail.\n',
    },
    forward: {
      subject: '[contact] {{subject}}',
      text: 'From: {{name}} <{{email}}>\nLocale: {{locale}}\nReference: {{id}}\n\n{{message}}\n',
    },
  },
  vi: {
    acknowledgement: {
      subject: 'Chúng tôi đã nhận được thư của bạn',
      text: 'Xin chào,\n\nCảm ơn bạn đã liên hệ. Chúng tôi đã nhận được thư của bạn và sẽ trả lời sớm nhất có thể.\n\nMã tham chiếu: {{id}}\n\nNếu bạn không liên hệ với chúng tôi, bạn có thể bỏ qua thư này.\n',
    },
    forward: {
      subject: '[liên hệ] {{subject}}',
      text: 'Từ: {{name}} <{{email}}>\nNgôn ngữ: {{locale}}\nMã tham chiếu: {{id}}\n\n{{message}}\n',
    },
  },
});

const values = (message: ContactMessage) => ({
  subject: message.subject,
  name: message.name,
  email: message.email,
  message: message.message,
  id: message.id,
  locale: message.locale,
});

/**
 * Tells the sender, in their language, that the message arrived. Anyone may give any address, so
 * the mail is fixed text and its reference: nothing the sender wrote goes to the address they named.
 */
export function acknowledgementMail(message: ContactMessage): Mail {
  const t = texts(message.locale);
  return {
    to: message.email,
    subject: t('acknowledgement.subject'),
    text: t('acknowledgement.text', { id: message.id }),
  };
}

/** Forwards the message to the platform's inbox (CONTACT_TO), in English. */
export function forwardMail(message: ContactMessage, to: string): Mail {
  const t = texts('en');
  return { to, subject: t('forward.subject', values(message)), text: t('forward.text', values(message)) };
}
