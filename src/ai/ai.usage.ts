import type { Logger } from 'pino';
import type { PlainSql } from '../db/plain-sql';
import { today } from './ai.quota';

/**
 * Tokens the backend reported, added to the day's usage rows in batches: one statement every
 * `flushMs` for all the answers since, instead of one per answer. What is waiting is written on
 * shutdown (`close()`, a step of the app's drain on SIGTERM); a batch the database refused is kept
 * and tried again with the next one.
 */
export class UsageRecorder {
  /** Tokens waiting, per `userId day`. */
  private waiting = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: PlainSql,
    private readonly log: Logger,
    private readonly flushMs: number,
  ) {}

  record(userId: string, tokens: number): void {
    if (!(tokens > 0)) return;
    const key = `${userId} ${today()}`;
    this.waiting.set(key, (this.waiting.get(key) ?? 0) + Math.round(tokens));
    this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
  }

  /** Writes what is waiting now, after any write under way. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.waiting.size === 0) return;
    const batch = this.waiting;
    this.waiting = new Map();
    const rows = [...batch].map(([key, tokens]) => {
      const [user_id, day] = key.split(' ');
      return { user_id, day, tokens };
    });
    try {
      await this.sql.query(
        // Rows are locked in the order the quota's reservations take them (by person): in the order
        // of a join, a flush and a reservation waited for each other's rows and deadlocked.
        `with batch as (select * from jsonb_to_recordset(?::jsonb) as b (user_id uuid, day date, tokens bigint)),
              locked as (select u.user_id, u.day from ai_usage u join batch using (user_id, day) order by u.user_id, u.day for update of u)
         update ai_usage set tokens = ai_usage.tokens + batch.tokens
         from batch join locked using (user_id, day)
         where ai_usage.user_id = batch.user_id and ai_usage.day = batch.day`,
        [JSON.stringify(rows)],
      );
    } catch (error) {
      this.log.warn(
        { err: error, rows: batch.size },
        'AI token usage not recorded yet; trying again with the next batch',
      );
      for (const [key, amount] of batch) this.waiting.set(key, (this.waiting.get(key) ?? 0) + amount);
      this.timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
    }
  }
}
