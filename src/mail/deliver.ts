import type { Deps } from '../kernel/deps';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Mail } from './mailer';
import { queueMail } from './queue';

/** A page of the web app, with the token the mail carries, for links in mails. */
export function publicLink(publicUrl: string, page: string, token?: string, query: Record<string, string> = {}): string {
  const url = new URL(page, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  for (const [key, value] of Object.entries({ ...query, ...(token ? { token } : {}) })) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * The answer does not wait for the mail server: the mail is stored as a durable job (src/mail/queue.ts)
 * that is retried with backoff until the server takes it; only a failure to store it is logged here.
 */
export function sendInBackground(deps: Pick<Deps, 'jobs' | 'log'>, mail: Mail): void {
  queueMail(deps, mail).catch((error) => deps.log.error({ err: error }, 'mail not queued'));
}

/** Mail about a change goes once the change is committed: a rolled-back sign-up mails nobody. */
export function sendAfterCommit(uow: UnitOfWork, mail: Mail): void {
  uow.afterCommit(() => sendInBackground(uow.deps, mail));
}
