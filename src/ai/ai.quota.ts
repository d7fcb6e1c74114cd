import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { Tier } from '../auth';
import { AppError } from '../kernel/errors';

export interface Quota {
  tier: Tier;
  period: 'day';
  limit: number;
  used: number;
  remaining: number;
  resetsAt: Date;
}

export function tierQuota(config: Pick<Config, 'AI_QUOTA_FREE' | 'AI_QUOTA_STARTER' | 'AI_QUOTA_PRO'>, tier: Tier): number {
  return { [Tier.free]: config.AI_QUOTA_FREE, [Tier.starter]: config.AI_QUOTA_STARTER, [Tier.pro]: config.AI_QUOTA_PRO }[tier];
}

/** Quotas count UTC days. */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function nextReset(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

export async function usedToday(em: EntityManager, userId: string): Promise<number> {
  const rows = await em.getConnection().execute<{ messages: number }[]>('select messages from ai_usage where user_id = ? and day = ?', [userId, today()]);
  return rows[0]?.messages ?? 0;
}

/**
 * Takes one message of the day's quota in a single statement: the row only grows while below the
 * limit, so concurrent requests can never spend more than there is.
 */
export async function reserveMessage(em: EntityManager, userId: string, limit: number): Promise<void> {
  const rows = await em.getConnection().execute<{ messages: number }[]>(
    `insert into ai_usage (user_id, day, messages, tokens) select ?, ?, 1, 0 where ? > 0
     on conflict (user_id, day) do update set messages = ai_usage.messages + 1 where ai_usage.messages < ?
     returning messages`,
    [userId, today(), limit, limit],
  );
  if (rows.length === 0) {
    const retryAfter = Math.max(1, Math.ceil((nextReset().getTime() - Date.now()) / 1000));
    throw new AppError('quota_exceeded', `Today's AI messages are used up (${limit}). They come back at midnight UTC.`, { retryAfter });
  }
}

/** Gives a message back when the backend did not answer it. */
export async function releaseMessage(em: EntityManager, userId: string): Promise<void> {
  await em.getConnection().execute('update ai_usage set messages = greatest(messages - 1, 0) where user_id = ? and day = ?', [userId, today()]);
}
