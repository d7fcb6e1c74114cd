import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../kernel/unit-of-work';
import type { Deps } from '../kernel/deps';
import {
  databaseUnreachable,
  mailTransportDown,
  migrationsPending,
  outboxRelayStopped,
  instanceLeaving,
} from './health.errors';

const CHECK_TIMEOUT_MS = 2000;

export interface DatabaseHealth {
  status: 'ok';
  database: 'up';
  latencyMs: number;
}

export interface Liveness {
  status: 'ok';
}

export interface Readiness {
  status: 'ok';
  database: 'up';
  migrations: 'applied';
  outboxRelay: 'running';
}

export interface EmailHealth {
  status: 'ok';
  transport: 'smtp' | 'file';
}

export class HealthService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deps: Deps,
  ) {}

  private get em(): EntityManager {
    return this.uow.em;
  }

  /** Answers within two seconds; a database that is down or hanging is upstream_unavailable. */
  async database(): Promise<DatabaseHealth> {
    const started = performance.now();
    try {
      await withTimeout(this.em.getConnection().execute('select 1'));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'health: database unreachable');
      throw databaseUnreachable();
    }
    return { status: 'ok', database: 'up', latencyMs: Math.round(performance.now() - started) };
  }

  /** The process answers: nothing else is asked, so a database outage never makes an orchestrator restart it. */
  live(): Liveness {
    return { status: 'ok' };
  }

  /**
   * Whether this instance should get traffic: its database answers, no migration of this build is
   * missing from it (someone ran a down command), and its outbox relay delivers what commits wrote.
   */
  async ready(): Promise<Readiness> {
    if (this.deps.leaving) throw instanceLeaving();
    await this.database();
    let pending: number;
    try {
      pending = (await withTimeout(this.deps.orm.getMigrator().getPendingMigrations())).length;
    } catch (error) {
      this.deps.log.warn({ err: error }, 'readiness: migrations cannot be read');
      throw databaseUnreachable();
    }
    if (pending) throw migrationsPending(pending);
    if (!this.deps.regions.every((region) => region.relay?.running)) throw outboxRelayStopped();
    return { status: 'ok', database: 'up', migrations: 'applied', outboxRelay: 'running' };
  }

  async email(): Promise<EmailHealth> {
    const health = await withTimeout(this.deps.mailer.health()).catch(() => ({
      transport: 'smtp' as const,
      ok: false,
      error: 'timeout',
    }));
    if (!health.ok) {
      this.deps.log.warn({ error: health.error }, 'health: mail transport not working');
      throw mailTransportDown(health.transport);
    }
    return { status: 'ok', transport: health.transport };
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('health check timed out')), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
