import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; cid?: string; contentType?: string }[];
  headers?: Record<string, string>;
  messageId?: string;
}

export interface MailHealth {
  transport: 'smtp' | 'file';
  ok: boolean;
  error?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  health(): Promise<MailHealth>;
  close(): void;
}

/** Sends through `SMTP_URL` when set; otherwise writes each message as an .eml file to the outbox. */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string }): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.from) : fileMailer(options.outboxDir, options.from);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  // Pooled: the connection (and its greeting and log-in) is kept for the next mails.
  const transport: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 5,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async health() {
      try {
        await transport.verify();
        return { transport: 'smtp', ok: true };
      } catch (error) {
        return { transport: 'smtp', ok: false, error: describe(error) };
      }
    },
    close: () => transport.close(),
  };
}

function fileMailer(outboxDir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await writeFile(join(outboxDir, name), info.message as Buffer);
    },
    async health() {
      try {
        await mkdir(outboxDir, { recursive: true, mode: 0o700 });
        await writeFile(join(outboxDir, '.health'), new Date().toISOString());
        return { transport: 'file', ok: true };
      } catch (error) {
        return { transport: 'file', ok: false, error: describe(error) };
      }
    },
    close: () => transport.close(),
  };
}

/** Only the kind of fault, never credentials that an SMTP URL may hold. */
function describe(error: unknown): string {
  const code = (error as { code?: string }).code;
  return code ? `mail transport error ${code}` : 'mail transport error';
}
