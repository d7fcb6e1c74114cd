import type { Config } from '../config';
import type { PlainSql } from '../db/plain-sql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import { Tier } from '../auth';
import { AppError } from '../kernel/errors';
import { WriteCombiner } from '../kernel/write-combiner';
import { quotaExceeded } from './ai.errors';

export interface Quota {
  tier: Tier;
  period: 'day';
  limit: number;
  used: number;
  remaining: number;
  resetsAt: Date;
}

export function tierQuota(
  config: Pick<Config, 'AI_QUOTA_FREE' | 'AI_QUOTA_STARTER' | 'AI_QUOTA_PRO'>,
  tier: Tier,
): number {
  return {
    [Tier.free]: config.AI_QUOTA_FREE,
    [Tier.starter]: config.AI_QUOTA_STARTER,
    [Tier.pro]: config.AI_QUOTA_PRO,
  }[tier];
}

/** Quotas count UTC days. */
export function today(now?: Date): string {
  if (now) return now.toISOString().slice(0, 10);
  // Asked on every message: worked out again when the day it knows is over (or the clock went back).
  const ms = Date.now();
  if (ms >= day.until || ms < day.from) {
    const start = ms - (ms % 86_400_000);
    day = { from: start, until: start + 86_400_000, value: new Date(start).toISOString().slice(0, 10) };
  }
  return day.value;
}

let day = { from: 0, until: 0, value: '' };

export function nextReset(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export async function usedToday(uow: UnitOfWork, userId: string): Promise<number> {
  const rows = await uow.query<{ messages: number }>('select messages from ai_usage where user_id = ? and day = ?', [
    userId,
    today(),
  ]);
  return rows[0]?.messages ?? 0;
}

/**
 * The statement's own transaction commits without waiting for the disk (`set_config(..., true)`
 * lasts as long as the transaction, which is the statement): a person's messages all count on one
 * row, so waiting for each flush in turn made every message wait for the ones before it. A crash
 * may forget the last fraction of a second of counting; locking and atomicity are unchanged.
 */
const NO_FLUSH_WAIT = `with no_flush_wait as (select set_config('synchronous_commit', 'off', true))`;

function quotaExceededNow(limit: number): AppError {
  return quotaExceeded(limit, Math.max(1, Math.ceil((nextReset().getTime() - Date.now()) / 1000)));
}

interface Reservation {
  userId: string;
  day: string;
  limit: number;
  settle(taken: boolean): void;
  fail(error: unknown): void;
}

/**
 * Takes messages of the day's quota, at most one statement per request and usually far fewer:
 * requests that arrive while statements are under way (at most two) go together in the next one (one row per
 * person; a person's second request waits for the statement after). Each row only grows while below
 * its limit, in the database, so concurrent requests on any number of instances can never spend
 * more than there is.
 */
export class QuotaReserver {
  private readonly combiner = new WriteCombiner<Reservation>((batch) => this.take(batch), {
    maxBatch: 500,
    maxStatements: 2,
    keyOf: (r) => `${r.userId} ${r.day}`,
  });

  constructor(private readonly sql: PlainSql) {}

  /** Takes one message, or throws quota_exceeded. */
  async reserve(userId: string, limit: number): Promise<void> {
    if (limit <= 0) throw quotaExceededNow(limit);
    const taken = await new Promise<boolean>((settle, fail) =>
      this.combiner.add({ userId, day: today(), limit, settle, fail }),
    );
    if (!taken) throw quotaExceededNow(limit);
  }

  private async take(batch: Reservation[]): Promise<void> {
    try {
      const rows = await this.sql.query<{ user_id: string; day: string }>(
        `${NO_FLUSH_WAIT}, batch as (select * from jsonb_to_recordset(?::jsonb) as b (user_id uuid, day date, lim integer))
         insert into ai_usage (user_id, day, messages, tokens) select b.user_id, b.day, 1, 0 from batch b, no_flush_wait order by b.user_id, b.day
         on conflict (user_id, day) do update set messages = ai_usage.messages + 1
           where ai_usage.messages < (select b.lim from batch b where b.user_id = ai_usage.user_id and b.day = ai_usage.day)
         returning user_id, day::text as day`,
        [JSON.stringify(batch.map((r) => ({ user_id: r.userId, day: r.day, lim: r.limit })))],
        { prepared: true },
      );
      const taken = new Set(rows.map((row) => `${row.user_id} ${row.day}`));
      for (const reservation of batch) reservation.settle(taken.has(`${reservation.userId} ${reservation.day}`));
    } catch (error) {
      for (const reservation of batch) reservation.fail(error);
    }
  }
}

/** Gives a message back when the backend did not answer it. */
export async function releaseMessage(uow: UnitOfWork, userId: string): Promise<void> {
  await uow.query('update ai_usage set messages = greatest(messages - 1, 0) where user_id = ? and day = ?', [
    userId,
    today(),
  ]);
}
