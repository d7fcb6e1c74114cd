import type { UnitOfWork } from './unit-of-work';

/**
 * The services of every area for one unit of work. Each area adds its own by declaration merging
 * (`declare module '../kernel/services' { interface Services { courses: CoursesService } }`), so
 * nothing here names an area.
 */
export interface Services {}

/** How an area builds its services; another area's service is reached through `services`. */
export type ServiceFactories = { [K in keyof Services]?: (uow: UnitOfWork, services: Services) => Services[K] };

/**
 * Builds, once per process, a constructor of the services of a unit of work. Each service is made
 * on first use, so a request pays only for what it calls, and services that need each other
 * (guardians and notifications) find each other without callbacks.
 */
export function serviceRegistry(factories: ServiceFactories[]): (uow: UnitOfWork) => Services {
  const prototype = {};
  for (const area of factories) {
    for (const [name, make] of Object.entries(area) as [string, (uow: UnitOfWork, services: Services) => unknown][]) {
      if (Object.hasOwn(prototype, name)) throw new Error(`Two areas define the service ${name}`);
      Object.defineProperty(prototype, name, {
        get(this: { uow: UnitOfWork; made: Map<string, unknown> }) {
          let service = this.made.get(name);
          if (service === undefined) this.made.set(name, (service = make(this.uow, this as unknown as Services)));
          return service;
        },
      });
    }
  }
  return (uow) => Object.assign(Object.create(prototype) as object, { uow, made: new Map() }) as unknown as Services;
}
