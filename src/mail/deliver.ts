import type { Deps } from '../kernel/deps';
import { RateLimitedError } from '../kernel/rate-limit';
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

/**
 * Mail that someone else's request sends to an address (a guardian asking to link, a learner asking
 * to buy): at most RATE_LIMIT_REQUEST_MAILS an hour per address, counted in the shared rate-limit
 * store so that every instance keeps one count. Past it the mail is not sent, and nothing else
 * changes: the request is made and shown in the app, and the sender is not told (a 429 would tell
 * them that others had written to the address).
 */
export async function sendRequestMail(deps: Pick<Deps, 'jobs' | 'log' | 'limits'>, mail: Mail): Promise<boolean> {
  try {
    await deps.limits.consume('requestMails', `mail:${mail.to.trim().toLowerCase()}`);
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    deps.log.info({ retryAfter: error.extra.retryAfter }, "request mail not sent: the recipient's hourly limit is reached");
    return false;
  }
  await queueMail(deps, mail);
  return true;
}

/** `sendRequestMail` once the change is committed, without the answer waiting for it. */
export function sendRequestMailAfterCommit(uow: UnitOfWork, mail: Mail): void {
  uow.afterCommit(() => void sendRequestMail(uow.deps, mail).catch((error) => uow.deps.log.error({ err: error }, 'mail not queued')));
}

/**
 * A name that a person chose, as a mail's text shows it: control characters and line breaks
 * (which could fake lines of the mail) become spaces, the length is capped, and it is quoted so it
 * reads as a name and not as the platform's words. Subjects never carry it.
 */
export function quotedName(name: string): string {
  const plain = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `“${plain.length > 60 ? `${plain.slice(0, 59)}…` : plain}”`;
}
