import type { Deps } from '../kernel/deps';
import type { Deliverer } from '../kernel/outbox';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Mail } from './mailer';

/** A mail as an outbox row (JSON): attachments travel as base64. */
interface QueuedMail extends Omit<Mail, 'attachments'> {
  attachments?: { filename: string; content: string; encoding: 'base64'; cid?: string; contentType?: string }[];
}

function toQueued(mail: Mail): QueuedMail {
  return {
    ...mail,
    attachments: mail.attachments?.map((a) => ({
      ...a,
      content: Buffer.from(a.content).toString('base64'),
      encoding: 'base64' as const,
    })),
  };
}

function fromQueued(data: QueuedMail): Mail {
  return {
    ...data,
    attachments: data.attachments?.map(({ encoding: _encoding, ...a }) => ({
      ...a,
      content: Buffer.from(a.content, 'base64'),
    })),
  };
}

/**
 * Mail about a change is written to the outbox with the change: a rolled-back sign-up mails nobody,
 * and a committed one mails even if the process dies before the mail server answers.
 */
export function sendMail(uow: UnitOfWork, ...mails: Mail[]): Promise<void> {
  return uow.enqueue(...mails.map((mail) => ({ kind: 'mail', name: 'send', payload: toQueued(mail) })));
}

/**
 * The relay sends a mail row; a refused or failed send is tried again after MAIL_RETRY_DELAY_MS,
 * then twice that and so on (MAIL_RETRIES retries). A sent mail's row is removed, so its text
 * (links, tokens, names) is not kept. Its Message-ID is the row's: should the process die between
 * the server's answer and the row's removal, the mail sent again is recognisably the same one.
 */
export function mailDeliverer(deps: Pick<Deps, 'mailer' | 'config'>): Deliverer {
  return {
    inTransaction: false,
    retry: { delayMs: deps.config.MAIL_RETRY_DELAY_MS, attempts: deps.config.MAIL_RETRIES + 1 },
    async deliver(row) {
      await deps.mailer.send({
        ...fromQueued(row.payload as unknown as QueuedMail),
        messageId: `<outbox-${row.id}@learning-platform.invalid>`,
      });
    },
  };
}

/** Unsent mails to an address are dropped (the address is being erased); how many. */
export async function forgetQueuedMail(uow: UnitOfWork, address: string): Promise<number> {
  const gone = await uow.query(`delete from outbox where kind = 'mail' and payload->>'to' = ? returning id`, [address]);
  return gone.length;
}
