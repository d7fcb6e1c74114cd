import type { Deps } from './deps';
import { whileLeased } from './lease';
import { CONNECTION_EVENT } from './pubsub';
import type { Services } from './services';
import type { UnitOfWork } from './unit-of-work';

/**
 * The transactional outbox (docs/architecture.md): every effect that must follow a commit (another area's
 * reaction to an event, a mail, a job) is a row of `outbox`, written in the transaction of the
 * change that causes it. A rolled-back change leaves no row; a committed one is delivered after
 * commit by the relay below, at least once, whatever happens to the process in between.
 */

/** The event (a NOTIFY) that wakes every instance's relay once a transaction that wrote rows has committed. */
export const OUTBOX_WRITTEN = 'outbox:written';

/** An effect as written in the transaction: who delivers it (`kind`) and what it is for them (`name`, `payload`). */
export interface Effect {
  kind: string;
  name: string;
  payload: object;
}

export interface OutboxRow extends Effect {
  id: string;
  /** Deliveries tried so far, this one included. */
  attempts: number;
}

/**
 * How one kind of effect is delivered. `inTransaction` deliverers change only the database: the row
 * is deleted in the same transaction as the effect, so the effect happens exactly once. The others
 * reach outside (a mail server, the job queue): the row goes once they succeed, so a crash in
 * between repeats them, and their handlers must be idempotent.
 */
export interface Deliverer {
  inTransaction: boolean;
  deliver(row: OutboxRow, unit: { uow: UnitOfWork; services: Services }): Promise<void>;
  /** The first retry's delay (doubling after that) and the attempts before the row is set aside as failed. */
  retry?: { delayMs: number; attempts: number };
}

export interface RelayOptions {
  /** How long a claimed row is not offered again (renewed while it is delivered): a relay that died mid-delivery gives it back after this. */
  leaseMs: number;
  /** The fallback sweep, for rows whose NOTIFY no relay heard (written while every instance was down). */
  sweepMs: number;
  batch: number;
}

const DEFAULT_RETRY = { delayMs: 1000, attempts: 20 };
const MAX_RETRY_DELAY_MS = 3_600_000;
/** About 30 s in all, the lease renewed meanwhile: then the row is left for a second delivery. */
const FORGET_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000, 16_000];
/** Room for the database's clock, which decides when the row is due. */
const RETRY_MARGIN_MS = 20;

/** Claims delivered at once by one relay: each holds a pooled connection while its transaction runs. */
const DRAINS_AT_ONCE = 3;

/** The insert of a transaction's rows. */
export function insertEffects(effects: readonly Effect[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const values = effects.map((effect) => {
    params.push(effect.kind, effect.name, JSON.stringify(effect.payload));
    return '(?, ?, ?::jsonb)';
  });
  return { sql: `insert into outbox (kind, name, payload) values ${values.join(', ')}`, params };
}

/** One relay per instance: woken by the NOTIFY of a commit, swept on a timer, rows claimed with SKIP LOCKED so instances share them. */
export class OutboxRelay {
  private readonly drains = new Set<Promise<void>>();
  private again = false;
  private stopped = true;
  private sweep?: NodeJS.Timeout;
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private unlisten: (() => void)[] = [];

  constructor(
    private readonly deps: Deps,
    private readonly deliverers: Readonly<Record<string, Deliverer>>,
    private readonly openUnit: () => { uow: UnitOfWork; services: Services },
    private readonly options: RelayOptions,
  ) {}

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    this.stopped = false;
    this.unlisten.push(this.deps.pubSub.listen(OUTBOX_WRITTEN, () => this.wake()));
    // Back from a lost LISTEN connection: rows committed meanwhile were announced to nobody.
    this.unlisten.push(this.deps.pubSub.listen(CONNECTION_EVENT, (up) => up === true && this.wake()));
    this.sweep = setInterval(() => this.wake(), this.options.sweepMs).unref();
    this.wake();
  }

  /** Stops claiming rows and waits for the deliveries under way; what is left stays for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweep);
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    for (const unlisten of this.unlisten.splice(0)) unlisten();
    await Promise.all(this.drains);
  }

  /**
   * Delivers what is due now, in up to DRAINS_AT_ONCE drains (SKIP LOCKED hands each its own rows: one
   * at a time fell behind a webhook load). A wake while they all run starts another as soon as one
   * ends: not once all have, or one delivery that hangs (a mail server that never answers, a reaction
   * waiting on a lock) held up every row committed after it.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.drains.size >= DRAINS_AT_ONCE) {
      this.again = true;
      return;
    }
    this.again = false;
    while (this.drains.size < DRAINS_AT_ONCE) {
      const drain: Promise<void> = this.drain().finally(() => {
        this.drains.delete(drain);
        if (this.again) this.wake();
      });
      this.drains.add(drain);
    }
  }

  private async drain(): Promise<void> {
    try {
      for (let rows = await this.claim(); rows.length && !this.stopped; rows = await this.claim()) {
        const together = rows.filter((row) => this.deliverers[row.kind]?.inTransaction);
        await Promise.all([
          this.deliverTogether(together),
          ...rows.filter((row) => !together.includes(row)).map((row) => this.deliverOne(row)),
        ]);
      }
    } catch (error) {
      // The database is away: the sweep tries again.
      this.deps.log.warn({ err: { message: (error as Error).message } }, 'outbox: rows could not be claimed');
    }
  }

  private claim(): Promise<OutboxRow[]> {
    return this.deps.sql.unlogged<OutboxRow>(
      `update outbox o set attempts = o.attempts + 1, available_at = now() + make_interval(secs => ?)
       from (select id from outbox where available_at <= now() and failed_at is null order by id limit ? for update skip locked) due
       where o.id = due.id returning o.id, o.kind, o.name, o.payload, o.attempts`,
      [this.options.leaseMs / 1000, this.options.batch],
    );
  }

  /**
   * The database-only effects of a claim in one transaction, one after another: a transaction (and a
   * commit's WAL flush) each held a pooled connection per row, and under a webhook load the reactions
   * (a product's sales count, notifications) waited on each other's locks with the requests' connections
   * (bench:commerce). Rows another relay took meanwhile are skipped; if any effect fails, the whole
   * claim is undone and each row is delivered on its own, so one failure delays only itself.
   */
  private async deliverTogether(rows: OutboxRow[]): Promise<void> {
    if (rows.length <= 1) {
      await Promise.all(rows.map((row) => this.deliverOne(row)));
      return;
    }
    try {
      const unit = this.openUnit();
      await unit.uow.transaction(async () => {
        const gone = new Set(
          (
            await unit.uow.query<{ id: string }>('delete from outbox where id = any(?::bigint[]) returning id', [
              `{${rows.map((row) => row.id).join(',')}}`,
            ])
          ).map((row) => String(row.id)),
        );
        for (const row of rows) if (gone.has(String(row.id))) await this.deliverers[row.kind].deliver(row, unit);
      });
    } catch {
      await Promise.all(rows.map((row) => this.deliverOne(row)));
    }
  }

  private async deliverOne(row: OutboxRow): Promise<void> {
    const deliverer = this.deliverers[row.kind];
    try {
      if (!deliverer) throw new Error(`no deliverer for outbox rows of kind ${row.kind}`);
      const unit = this.openUnit();
      if (deliverer.inTransaction) {
        await unit.uow.transaction(async () => {
          // Locks the row: a second relay whose lease ran out waits here, then finds it gone.
          const gone = await unit.uow.query('delete from outbox where id = ? returning id', [row.id]);
          if (gone.length) await deliverer.deliver(row, unit);
        });
      } else {
        // The claim is confirmed (and its lease renewed) just before the effect: a relay that stalled
        // past its lease (its renewals could not run) finds the row taken over and leaves it to the
        // relay that has it. What stays at least once is an effect already under way when its lease
        // ran out, or done just before its instance died.
        await whileLeased(
          this.options.leaseMs,
          () => this.renew(row),
          async () => {
            if (!(await this.renew(row))) return;
            await deliverer.deliver(row, unit);
            await this.forget(row);
          },
        );
      }
    } catch (error) {
      await this.retryLater(row, deliverer?.retry ?? DEFAULT_RETRY, error as Error).catch(() => {});
    }
  }

  /**
   * Extends the row's lease while this claim of it is the latest: each claim adds one to `attempts`,
   * so a row claimed again by another relay is no longer this claim's to renew; false then.
   */
  private async renew(row: OutboxRow): Promise<boolean> {
    const renewed = await this.deps.sql.unlogged(
      'update outbox set available_at = now() + make_interval(secs => ?) where id = ? and attempts = ? and failed_at is null returning id',
      [this.options.leaseMs / 1000, row.id, row.attempts],
    );
    return renewed.length > 0;
  }

  /**
   * Removes a delivered row, trying again while the database is away (a restart takes seconds):
   * a row left behind would be delivered a second time when its lease runs out. Whoever claims it
   * now: its effect has happened, and a relay that took it over finds it gone before delivering.
   */
  private async forget(row: OutboxRow): Promise<void> {
    for (const delayMs of FORGET_DELAYS_MS) {
      try {
        await this.deps.sql.unlogged('delete from outbox where id = ?', [row.id]);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
    this.deps.log.warn(
      { outbox: { id: row.id, kind: row.kind, name: row.name } },
      'outbox: a delivered row could not be removed; it may be delivered again',
    );
  }

  private async retryLater(row: OutboxRow, retry: { delayMs: number; attempts: number }, error: Error): Promise<void> {
    const failed = row.attempts >= retry.attempts;
    const delayMs = Math.min(retry.delayMs * 2 ** (row.attempts - 1), MAX_RETRY_DELAY_MS);
    // The message only: an error of a mail server or a handler may quote what was sent.
    const reason = error.message.slice(0, 500);
    if (failed)
      this.deps.log.error(
        { outbox: { id: row.id, kind: row.kind, name: row.name, attempts: row.attempts }, err: { message: reason } },
        'outbox: effect failed after every retry',
      );
    else
      this.deps.log.warn(
        { outbox: { id: row.id, kind: row.kind, name: row.name, attempts: row.attempts }, err: { message: reason } },
        'outbox: delivery failed; retrying',
      );
    // Only this claim's: a relay that failed after its lease ran out leaves another's claim (and its lease) alone.
    const updated = await this.deps.sql.unlogged(
      `update outbox set available_at = now() + make_interval(secs => ?), last_error = ?, failed_at = ${failed ? 'now()' : 'null'} where id = ? and attempts = ? returning id`,
      [delayMs / 1000, reason, row.id, row.attempts],
    );
    if (!updated.length) return;
    // The retry is due then: no commit will wake the relay for it, and the sweep may be far.
    if (failed) return;
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.wake();
    }, delayMs + RETRY_MARGIN_MS).unref();
    this.retryTimers.add(timer);
  }
}
