import { exponential } from 'agenda';
import type { Deps } from '../kernel/deps';
import type { Mail } from './mailer';

/** The Agenda job that sends one mail; retried with backoff until the mail server takes it. */
export const MAIL_JOB = 'mail: send';

/** A mail as job data (JSON): attachments travel as base64. */
interface QueuedMail extends Omit<Mail, 'attachments'> {
  attachments?: { filename: string; content: string; encoding: 'base64'; cid?: string; contentType?: string }[];
}

function toQueued(mail: Mail): QueuedMail {
  return { ...mail, attachments: mail.attachments?.map((a) => ({ ...a, content: Buffer.from(a.content).toString('base64'), encoding: 'base64' as const })) };
}

function fromQueued(data: QueuedMail): Mail {
  return { ...data, attachments: data.attachments?.map(({ encoding: _encoding, ...a }) => ({ ...a, content: Buffer.from(a.content, 'base64') })) };
}

/**
 * Mail goes through a durable job, not fire-and-forget: the job is stored before anything is
 * sent, a refused or failed send is tried again after MAIL_RETRY_DELAY_MS, then twice that and so
 * on (up to MAIL_RETRIES retries), and a job that was waiting when the process stopped is run by
 * the next one. A sent mail's job is removed, so its text (links, tokens, names) is not kept.
 */
export function defineMailJob(deps: Pick<Deps, 'jobs' | 'mailer' | 'config' | 'log'>): void {
  const { agenda } = deps.jobs;
  agenda.define<QueuedMail>(
    MAIL_JOB,
    async (job) => {
      await deps.mailer.send(fromQueued(job.attrs.data));
    },
    {
      concurrency: deps.config.MAIL_CONCURRENCY,
      lockLifetime: deps.config.JOBS_LOCK_LIFETIME_MS,
      backoff: exponential({ delay: deps.config.MAIL_RETRY_DELAY_MS, factor: 2, maxDelay: 3_600_000, maxRetries: deps.config.MAIL_RETRIES }),
      removeOnComplete: true,
    },
  );
  agenda.on(`retry exhausted:${MAIL_JOB}`, (error: Error) => deps.log.error({ err: error }, 'mail not sent after every retry'));
}

/** Stores the mail as a job; it is sent by whichever instance takes the job. */
export async function queueMail(deps: Pick<Deps, 'jobs'>, mail: Mail): Promise<void> {
  await deps.jobs.agenda.now(MAIL_JOB, toQueued(mail));
}

/** Unsent mails to an address are dropped (the address is being erased); how many. */
export async function forgetQueuedMail(deps: Pick<Deps, 'jobs'>, address: string): Promise<number> {
  return deps.jobs.agenda.cancel({ name: MAIL_JOB, data: { to: address } });
}
