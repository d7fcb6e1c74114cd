import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { Deps } from './deps';
import type { DomainEvent, EventBus } from './events';
import { isId } from './ids';
import { type Effect, insertEffects, OUTBOX_WRITTEN } from './outbox';

interface Transaction {
  owner: UnitOfWork;
  em: EntityManager;
  /** Rows of the outbox, written just before the commit. */
  effects: Effect[];
  afterCommit: (() => void | Promise<void>)[];
}

/** Which transaction the code running now belongs to: it follows the async calls of one unit of work. */
const current = new AsyncLocalStorage<Transaction>();

/**
 * Runs `effect` when the transaction the code running now is in commits (at once outside one):
 * for hooks that do not know their unit of work (an ORM flush's subscriber).
 */
export function afterCurrentCommit(effect: () => void): void {
  const tx = current.getStore();
  if (tx) tx.afterCommit.push(effect);
  else effect();
}

/** The loaders every unit of work of one instance shares (`shared`). */
const sharedLoaders = new WeakMap<Deps, Map<string, DataLoader<unknown, unknown>>>();

/**
 * One request, WebSocket operation or job: one entity manager and, when it writes, one transaction
 * that every service it calls joins. What must follow the commit (other areas' reactions, mail,
 * jobs) is written to the outbox in that transaction (`raise`, `enqueue`), so a rolled-back write
 * causes nothing and a committed one loses nothing; only live pushes to subscribers and this
 * instance's caches (`publish`, `afterCommit`) are in memory, and the answer waits for neither.
 */
export class UnitOfWork {
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();

  private forked?: EntityManager;

  /** `root`: the unit's entity manager, or how to make it when first needed (a request that reads nothing through the ORM never forks one). */
  constructor(
    readonly deps: Deps,
    private readonly makeRoot: EntityManager | (() => EntityManager),
    private readonly bus: EventBus,
  ) {}

  private get root(): EntityManager {
    return (this.forked ??= typeof this.makeRoot === 'function' ? this.makeRoot() : this.makeRoot);
  }

  /** The transaction's entity manager inside `transaction()`, the unit's own otherwise. */
  get em(): EntityManager {
    const tx = current.getStore();
    return tx?.owner === this ? tx.em : this.root;
  }

  get inTransaction(): boolean {
    return current.getStore()?.owner === this;
  }

  /**
   * A statement of SQL (`?` placeholders): in the unit's transaction when one is open, so that it sees
   * the unit's own writes; else on the plain pool, past the ORM (a hot read costs half as much CPU).
   */
  query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.inTransaction ? this.em.execute<T[]>(sql, [...params]) : this.deps.sql.query<T>(sql, params);
  }

  /**
   * Reads that need not wait for each other: at once on the pool's connections, but one after
   * another inside a transaction, whose one connection takes a statement at a time (pg queues the
   * rest itself, a use it deprecates).
   */
  async all<T extends readonly (() => Promise<unknown>)[]>(
    reads: T,
  ): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
    if (!this.inTransaction) return Promise.all(reads.map((read) => read())) as never;
    const results: unknown[] = [];
    for (const read of reads) results.push(await read());
    return results as never;
  }

  /** Runs `work` in the unit's transaction, starting one unless a caller already did (then it joins). */
  async transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const joined = current.getStore();
    if (joined?.owner === this) return work(joined.em);
    const effects: Effect[] = [];
    const afterCommit: Transaction['afterCommit'] = [];
    let wrote = false;
    const result = await this.root.transactional((em) =>
      current.run({ owner: this, em: em as EntityManager, effects, afterCommit }, async () => {
        const value = await work(em as EntityManager);
        wrote = await this.writeEffects(em as EntityManager, effects);
        return value;
      }),
    );
    // The relays are woken once the rows are committed, by a NOTIFY of its own (sent with the others of
    // the moment): a NOTIFY inside the transaction holds PostgreSQL's one queue lock across the commit's
    // WAL flush, so every transaction that wrote the outbox committed after the one before (a webhook
    // load stalled at about 170 commits/s). A wake lost with the process is made up by the relay's sweep.
    if (wrote) this.deps.pubSub.publish(OUTBOX_WRITTEN, null);
    // Live pushes and cache drops: the answer does not wait for them.
    for (const effect of afterCommit) void this.settle(effect);
    return result;
  }

  /**
   * Writes an effect to the outbox in the unit's transaction (a transaction of its own outside one):
   * the relay delivers it after commit, at least once (src/kernel/outbox.ts).
   */
  async enqueue(...effects: Effect[]): Promise<void> {
    const tx = current.getStore();
    if (tx?.owner === this) tx.effects.push(...effects);
    else await this.transaction(() => this.enqueue(...effects));
  }

  /** Raises a domain event: each area that reacts to it does so after commit, in a transaction of its own, exactly once. */
  raise(event: DomainEvent): Promise<void> {
    return this.enqueue(...this.bus.reactionsTo(event).map((area) => ({ kind: 'event', name: area, payload: event })));
  }

  /** Writes the transaction's outbox rows in one statement; true when there were any. */
  private async writeEffects(em: EntityManager, effects: Effect[]): Promise<boolean> {
    if (!effects.length) return false;
    const { sql, params } = insertEffects(effects.splice(0));
    await em.execute(sql, params);
    return true;
  }

  /**
   * Runs `effect` once the transaction commits (at once outside one); never when it rolls back.
   * Only for what may be lost with the process: a live push, this instance's caches.
   */
  afterCommit(effect: () => void | Promise<void>): void {
    const tx = current.getStore();
    if (tx?.owner === this) tx.afterCommit.push(effect);
    else void this.settle(effect);
  }

  /** Publishes to live subscribers (every instance) after commit. */
  publish(topic: string, key: string, payload: object): void {
    this.afterCommit(() => this.deps.pubSub.publish(topic, key, payload));
  }

  /**
   * A loader of this unit of work: what every parent of a list asks for in one tick is read in
   * one statement (a page of 20 courses reads its lessons once). It batches but keeps nothing: a
   * subscription's unit lives across events, and each event must read what is stored then.
   */
  loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
    let loader = this.loaders.get(name) as DataLoader<K, V> | undefined;
    if (!loader)
      this.loaders.set(name, (loader = new DataLoader<K, V>(batch, { cache: false })) as DataLoader<unknown, unknown>);
    return loader;
  }

  /**
   * A loader shared by every unit of work of this instance: what all of them ask for before the
   * next turn of the event loop (the subscriptions of events that arrived together, each in its
   * own unit) is read in one statement, on an entity manager of its own. It keeps nothing either.
   */
  shared<K, V>(name: string, batch: (keys: readonly K[], em: EntityManager) => Promise<V[]>): DataLoader<K, V> {
    let loaders = sharedLoaders.get(this.deps);
    if (!loaders) sharedLoaders.set(this.deps, (loaders = new Map()));
    let loader = loaders.get(name) as DataLoader<K, V> | undefined;
    if (!loader) {
      const { orm } = this.deps;
      loader = new DataLoader<K, V>((keys) => batch(keys, orm.em.fork() as EntityManager), {
        cache: false,
        maxBatchSize: 1000,
        batchScheduleFn: (run) => setImmediate(run),
      });
      loaders.set(name, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  }

  /**
   * The row of this id (null when there is none, or the id is not a UUID), read in one statement with
   * every other id this unit asks `name` for in the same tick: the rules of `nodes(ids:)` ask one per id.
   */
  byId<T extends { id: string }>(name: string, id: string, read: (ids: string[]) => Promise<T[]>): Promise<T | null> {
    if (!isId(id)) return Promise.resolve(null);
    return this.loader<string, T | null>(name, async (ids) => {
      const rows = new Map((await read([...ids])).map((row) => [row.id, row]));
      return ids.map((key) => rows.get(key) ?? null);
    }).load(id);
  }

  /** Rows of many parents in one statement, each parent's in the order read (for list fields). */
  children<T>(
    name: string,
    parentId: string,
    read: (parentIds: string[]) => Promise<T[]>,
    parentOf: (row: T) => string,
  ): Promise<T[]> {
    return this.loader<string, T[]>(name, async (ids) => {
      const byParent = new Map<string, T[]>(ids.map((id) => [id, []]));
      for (const row of await read([...ids])) byParent.get(parentOf(row))?.push(row);
      return ids.map((id) => byParent.get(id)!);
    }).load(parentId);
  }

  /** An effect that fails after commit cannot undo the commit: it is logged, never thrown at the caller. */
  private async settle(effect: () => void | Promise<void>): Promise<void> {
    try {
      await effect();
    } catch (error) {
      this.deps.log.error({ err: error }, 'after-commit effect failed');
    }
  }
}
