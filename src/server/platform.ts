import type { EntityManager } from '@mikro-orm/postgresql';
import { areas } from '../areas';
import { migrations as foundationMigrations } from '../db/migrations';
import { type DatabaseModel, openDatabase, type Orm } from '../db/orm';
import type { GraphQLSchema } from 'graphql';
import type { Deps } from '../kernel/deps';
import type { BodyLimits } from '../kernel/body-limit';
import type { DomainEvent, EventBus } from '../kernel/events';
import type { RestRoute } from '../kernel/rest-route';
import { type Services, serviceRegistry } from '../kernel/services';
import { UnitOfWork } from '../kernel/unit-of-work';
import { mergeRules } from '../permissions';
import { defineMailJob } from '../mail/queue';

/**
 * The composition root: everything the service is made of, read from the list of areas. Nothing
 * else outside the areas knows their names.
 */
export const model: DatabaseModel = {
  entities: areas.flatMap((area) => area.entities ?? []),
  migrations: [...foundationMigrations, ...areas.flatMap((area) => area.migrations ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
};

export const resolvers = areas.flatMap((area) => area.resolvers ?? []) as [Function, ...Function[]];

export const ruleMap = mergeRules(...areas.map((area) => area.rules ?? {}));

export const routes: RestRoute[] = areas.flatMap((area) => area.routes ?? []);

/** The mutations that may carry bodies over BODY_LIMIT, and how large. */
export const bodyLimits: BodyLimits = Object.assign({}, ...areas.map((area) => area.bodyLimits ?? {})) as BodyLimits;

const servicesOf = serviceRegistry(areas.map((area) => area.services ?? {}));

export function openAppDatabase(databaseUrl: string, log?: (message: string) => void): Promise<Orm> {
  return openDatabase(databaseUrl, model, log);
}

/** A unit of work of its own (a request, an operation, a job, an event handler) and its services. */
export function openUnit(deps: Deps, em?: EntityManager): { uow: UnitOfWork; services: Services } {
  const uow = new UnitOfWork(deps, em ?? (() => deps.orm.em.fork() as EntityManager), eventBusOf(deps));
  return { uow, services: servicesOf(uow) };
}

const buses = new WeakMap<Deps, EventBus>();
type AnyHandler = (event: DomainEvent, services: Services, uow: UnitOfWork) => Promise<void>;

/** Delivers a committed event to every area that reacts to it, each reaction in a unit of work of its own. */
function eventBusOf(deps: Deps): EventBus {
  let bus = buses.get(deps);
  if (!bus) {
    bus = {
      async deliver(event: DomainEvent) {
        for (const area of areas) {
          const handler = (area.on as Record<string, AnyHandler> | undefined)?.[(event as { type: string }).type];
          if (!handler) continue;
          try {
            const { uow, services } = openUnit(deps);
            await handler(event, services, uow);
          } catch (error) {
            deps.log.error({ err: error, event: (event as { type: string }).type, area: area.name }, 'event handler failed');
          }
        }
      },
    };
    buses.set(deps, bus);
  }
  return bus;
}

/** Defines every area's jobs; each job runs in a unit of work of its own. */
export function defineJobs(deps: Deps): void {
  defineMailJob(deps);
  for (const area of areas) {
    area.jobs?.(deps, async (work) => {
      const { uow, services } = openUnit(deps);
      await work(services, uow);
    });
  }
}

/** The areas' own HTTP routes (streams, files, pages), mounted before the route table. */
export const httpRoutes = areas.flatMap((area) => (area.http ? [area.http] : []));
export const jsonRoutes = (deps: Deps, schema: GraphQLSchema) => areas.flatMap((area) => area.jsonRoutes?.(deps, schema) ?? []);
