import { RateLimitedError } from '../kernel/rate-limit';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Mail } from './mailer';
import { sendMail } from './queue';

/** A page of the web app, with the token the mail carries, for links in mails. */
export function publicLink(
  publicUrl: string,
  page: string,
  token?: string,
  query: Record<string, string> = {},
): string {
  const url = new URL(page, publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`);
  for (const [key, value] of Object.entries({ ...query, ...(token ? { token } : {}) }))
    url.searchParams.set(key, value);
  return url.toString();
}

/**
 * Mail that someone else's request sends to an address (a guardian asking to link, a learner asking
 * to buy): at most RATE_LIMIT_REQUEST_MAILS an hour per address, counted in the shared rate-limit
 * store so that every instance keeps one count. Past it the mail is not sent, and nothing else
 * changes: the request is made and shown in the app, and the sender is not told (a 429 would tell
 * them that others had written to the address).
 */
export async function sendRequestMail(uow: UnitOfWork, mail: Mail): Promise<boolean> {
  try {
    await uow.deps.limits.consume('requestMails', `mail:${mail.to.trim().toLowerCase()}`);
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    uow.deps.log.info(
      { retryAfter: error.extra.retryAfter },
      "request mail not sent: the recipient's hourly limit is reached",
    );
    return false;
  }
  // An outbox row in the caller's transaction, as every mail.
  await sendMail(uow, mail);
  return true;
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
