import { Locale } from '../auth';
import type { Mail } from '../mail/mailer';
import type { ContactMessage } from './contact-message.entity';

/** Tells the sender, in their language, that the message arrived. */
export function acknowledgementMail(message: ContactMessage): Mail {
  const texts = {
    [Locale.en]: {
      subject: `We received your message: ${message.subject}`,
      text: `Hello ${message.name},\n\nThank you for writing to us. We received your message and will answer as soon as we can.\n\nYour message:\n${message.message}\n\nReference: ${message.id}\n`,
    },
    [Locale.vi]: {
      subject: `Chúng tôi đã nhận được thư của bạn: ${message.subject}`,
      text: `Xin chào ${message.name},\n\nCảm ơn bạn đã liên hệ. Chúng tôi đã nhận được thư của bạn và sẽ trả lời sớm nhất có thể.\n\nThư của bạn:\n${message.message}\n\nMã tham chiếu: ${message.id}\n`,
    },
  };
  return { to: message.email, ...texts[message.locale] };
}

/** Forwards the message to the platform's inbox (CONTACT_TO). */
export function forwardMail(message: ContactMessage, to: string): Mail {
  return {
    to,
    subject: `[contact] ${message.subject}`,
    text: `From: ${message.name} <${message.email}>\nLocale: ${message.locale}\nReference: ${message.id}\n\n${message.message}\n`,
  };
}
