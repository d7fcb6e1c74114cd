import { Client } from 'pg';
import type { ReceivedMail } from '../../test/support/smtp';

/** A kind of effect the soak asks for, and how its delivery shows in the mail received. */
interface Kind {
  name: string;
  subject: RegExp;
}

const KINDS = {
  verification: { name: 'verification mails', subject: /confirm your e-mail/i },
  reset: { name: 'reset mails', subject: /reset your password/i },
  exports: { name: 'exports (the ready mail)', subject: /export is ready/i },
} satisfies Record<string, Kind>;

export type KindKey = keyof typeof KINDS;

export interface Tally {
  kind: string;
  committed: number;
  delivered: number;
  deliveredTwice: number;
  /** Of those, how many were one outbox row sent again (one Message-ID): the at-least-once of a mail under way when its sender died or lost its lease. */
  sameRowAgain: number;
  lost: number;
}

/**
 * What the soak was promised (a 201 or 202 whose effect the service committed) per kind and
 * address, against the mail the SMTP server received. Each soak account asks for each kind once,
 * so a second mail of a kind to an address is a delivery repeated.
 */
export class Ledger {
  private readonly committed = new Map<KindKey, Set<string>>(
    Object.keys(KINDS).map((k) => [k as KindKey, new Set<string>()]),
  );
  readonly exportIds: string[] = [];

  commit(kind: KindKey, address: string): void {
    this.committed.get(kind)!.add(address);
  }

  tally(received: readonly ReceivedMail[]): Tally[] {
    return (Object.keys(KINDS) as KindKey[]).map((key) => {
      const kind: Kind = KINDS[key];
      const ids = new Map<string, string[]>();
      for (const mail of received)
        if (kind.subject.test(mail.subject))
          for (const to of mail.to) ids.set(to, [...(ids.get(to) ?? []), mail.messageId]);
      const asked = [...this.committed.get(key)!];
      const times = asked.map((address) => ids.get(address) ?? []);
      const twice = times.filter((sent) => sent.length > 1);
      return {
        kind: kind.name,
        committed: asked.length,
        delivered: times.filter((sent) => sent.length > 0).length,
        deliveredTwice: twice.length,
        sameRowAgain: twice.filter((sent) => new Set(sent).size === 1).length,
        lost: times.filter((sent) => sent.length === 0).length,
      };
    });
  }
}

/** What is still owed in the database: outbox rows not yet delivered, and asked-for exports not ready. */
export interface Owed {
  outbox: number;
  failedOutbox: number;
  exports: Record<string, number>;
}

export async function owed(databaseUrl: string, exportIds: string[]): Promise<Owed> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const outbox = await client.query<{ pending: number; failed: number }>(
      `select count(*) filter (where failed_at is null)::int as pending, count(*) filter (where failed_at is not null)::int as failed from outbox`,
    );
    const exports = await client.query<{ status: string; n: number }>(
      `select status, count(*)::int as n from gdpr_requests where id = any($1::uuid[]) and status <> 'ready' group by status`,
      [exportIds],
    );
    return {
      outbox: outbox.rows[0].pending,
      failedOutbox: outbox.rows[0].failed,
      exports: Object.fromEntries(exports.rows.map((r) => [r.status, r.n])),
    };
  } finally {
    await client.end();
  }
}

/**
 * Waits until nothing is owed (no pending outbox row, every export asked for ready) and the mail
 * server has taken every message handed to it, or until `ms` have passed. Answers what is still
 * owed then, and how long it took.
 */
export async function drain(
  databaseUrl: string,
  exportIds: string[],
  received: readonly ReceivedMail[],
  ms: number,
): Promise<Owed & { seconds: number }> {
  const started = Date.now();
  for (;;) {
    const now = await owed(databaseUrl, exportIds).catch(() => undefined);
    const settled = now && now.outbox === 0 && Object.keys(now.exports).length === 0;
    if (settled) {
      // A mail leaves the outbox once the server accepted it; its parsing here may lag a moment.
      const seen = received.length;
      await pause(2000);
      if (received.length === seen) return { ...now, seconds: (Date.now() - started) / 1000 };
      continue;
    }
    if (Date.now() - started > ms)
      return { ...(now ?? { outbox: -1, failedOutbox: -1, exports: {} }), seconds: (Date.now() - started) / 1000 };
    await pause(2000);
  }
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
