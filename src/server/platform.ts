import type { EntityManager } from '@mikro-orm/postgresql';
import { areas } from '../areas';
import { migrations as foundationMigrations } from '../db/migrations';
import { type DatabaseModel, openDatabase, type Orm } from '../db/orm';
import type { GraphQLSchema } from 'graphql';
import type { Deps } from '../kernel/deps';
import type { BodyLimits } from '../kernel/body-limit';
import type { DomainEvent, EventBus } from '../kernel/events';
import type { RestRoute } from '../kernel/rest-route';
import { type Services, serviceRegistry, servicesOfArea } from '../kernel/services';
import { UnitOfWork } from '../kernel/unit-of-work';
import { mergeRules } from '../permissions';
import { mailDeliverer } from '../mail/queue';
import { type Deliverer, OutboxRelay } from '../kernel/outbox';

/**
 * The composition root: everything the service is made of, read from the list of areas. Nothing
 * else outside the areas knows their names.
 */
export const model: DatabaseModel = {
  entities: areas.flatMap((area) => area.entities ?? []),
  migrations: [...foundationMigrations, ...areas.flatMap((area) => area.migrations ?? [])].sort((a, b) =>
    a.name.localeCompare(b.name),
  ),
};

export const resolvers = areas.flatMap((area) => area.resolvers ?? []) as [Function, ...Function[]];

export const ruleMap = mergeRules(...areas.map((area) => area.rules ?? {}));

export const routes: RestRoute[] = areas.flatMap((area) =>
  (area.routes ?? []).map((route) => ({ ...route, area: area.name })),
);

/** The mutations that may carry bodies over BODY_LIMIT, and how large. */
export const bodyLimits: BodyLimits = Object.assign({}, ...areas.map((area) => area.bodyLimits ?? {})) as BodyLimits;

const servicesOf = serviceRegistry(areas);

export function openAppDatabase(databaseUrl: string, log?: (message: string) => void): Promise<Orm> {
  return openDatabase(databaseUrl, model, log);
}

/** A unit of work of its own (a request, an operation, a job, an event handler) and its services. */
export function openUnit(deps: Deps, em?: EntityManager): { uow: UnitOfWork; services: Services } {
  const uow = new UnitOfWork(deps, em ?? (() => deps.orm.em.fork() as EntityManager), eventBus);
  return { uow, services: servicesOf(uow) };
}

type AnyHandler = (event: DomainEvent, services: Services, uow: UnitOfWork) => Promise<void>;

const handlerOf = (areaName: string, type: string): AnyHandler | undefined =>
  (areas.find((area) => area.name === areaName)?.on as Record<string, AnyHandler> | undefined)?.[type];

const eventBus: EventBus = {
  reactionsTo: (event) => areas.filter((area) => handlerOf(area.name, event.type)).map((area) => area.name),
};

/** How each kind of outbox row is delivered: an area's reaction to an event, in the row's transaction; a mail; a job. */
export function outboxDeliverers(deps: Deps): Record<string, Deliverer> {
  return {
    event: {
      inTransaction: true,
      async deliver(row, { uow, services }) {
        const event = row.payload as unknown as DomainEvent;
        const handler = handlerOf(row.name, event.type);
        if (!handler) throw new Error(`area ${row.name} does not react to ${event.type}`);
        await handler(event, servicesOfArea(services, row.name), uow);
      },
    },
    mail: mailDeliverer(deps),
    job: {
      inTransaction: false,
      async deliver(row) {
        await deps.jobs.agenda.now(row.name, row.payload);
      },
    },
  };
}

/** The relay of this instance's outbox. */
export function createOutboxRelay(deps: Deps): OutboxRelay {
  return new OutboxRelay(deps, outboxDeliverers(deps), () => openUnit(deps), {
    leaseMs: deps.config.OUTBOX_LEASE_MS,
    sweepMs: deps.config.OUTBOX_SWEEP_MS,
    batch: 20,
  });
}

/** Defines every area's jobs; each job runs in a unit of work of its own. */
export function defineJobs(deps: Deps): void {
  for (const area of areas) {
    area.jobs?.(deps, async (work) => {
      const { uow, services } = openUnit(deps);
      await work(servicesOfArea(services, area.name), uow);
    });
  }
}

/** The areas' own HTTP routes (streams, files, pages), mounted before the route table. */
export const httpRoutes = areas.flatMap((area) => (area.http ? [area.http] : []));
export const jsonRoutes = (deps: Deps, schema: GraphQLSchema) =>
  areas.flatMap((area) => area.jsonRoutes?.(deps, schema) ?? []);
