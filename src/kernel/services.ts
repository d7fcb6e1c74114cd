import type { UnitOfWork } from './unit-of-work';

/**
 * The services of every area for one unit of work. Each area adds its own by declaration merging
 * (`declare module '../kernel/services' { interface Services { courses: CoursesService } }`), so
 * nothing here names an area.
 */
export interface Services {}

/** How an area builds its services; another area's service is reached through `services`. */
export type ServiceFactories = { [K in keyof Services]?: (uow: UnitOfWork, services: Services) => Services[K] };

/** What the registry reads of an area: its name, the areas it uses, its service factories. */
export interface ServiceProvider {
  name: string;
  uses?: string[];
  services?: ServiceFactories;
}

interface Bag {
  uow: UnitOfWork;
  made: Map<string, unknown>;
  views: Map<string, Services>;
  viewOf(areaName: string): Services;
}

/**
 * The services one area may reach in the unit of work that `services` belongs to (the whole bag or
 * any area's view of it): what its event handlers, jobs and personal-data handlers are handed, as
 * its service factories are.
 */
export function servicesOfArea(services: Services, areaName: string): Services {
  const bag = ((services as { bag?: Bag }).bag ?? services) as Bag;
  return bag.viewOf(areaName);
}

/**
 * Builds, once per process, a constructor of the services of a unit of work. Each service is made
 * on first use, so a request pays only for what it calls, and services that need each other find
 * each other without callbacks. An area's factories get a view with only its own services and
 * those of the areas it declares in `uses`: reaching any other is an error at the first call,
 * not a dependency nobody declared.
 */
export function serviceRegistry(providers: ServiceProvider[]): (uow: UnitOfWork) => Services {
  const owner = new Map<string, string>();
  for (const area of providers) {
    for (const name of Object.keys(area.services ?? {})) {
      if (owner.has(name)) throw new Error(`Two areas define the service ${name}`);
      owner.set(name, area.name);
    }
  }
  const viewPrototypes = new Map(providers.map((area) => [area.name, viewPrototype(area, owner)]));
  const prototype = {};
  for (const area of providers) {
    for (const [name, make] of Object.entries(area.services ?? {}) as [
      string,
      (uow: UnitOfWork, services: Services) => unknown,
    ][]) {
      Object.defineProperty(prototype, name, {
        get(this: Bag) {
          let service = this.made.get(name);
          if (service === undefined) this.made.set(name, (service = make(this.uow, viewOf(this, area.name))));
          return service;
        },
      });
    }
  }
  const viewOf = (bag: Bag, areaName: string): Services => {
    if (!viewPrototypes.has(areaName)) throw new Error(`No area is named ${areaName}`);
    let view = bag.views.get(areaName);
    if (!view)
      bag.views.set(
        areaName,
        (view = Object.assign(Object.create(viewPrototypes.get(areaName)!) as object, { bag }) as unknown as Services),
      );
    return view;
  };
  Object.defineProperty(prototype, 'viewOf', {
    value(this: Bag, areaName: string) {
      return viewOf(this, areaName);
    },
  });
  return (uow) =>
    Object.assign(Object.create(prototype) as object, {
      uow,
      made: new Map(),
      views: new Map(),
    }) as unknown as Services;
}

/** The services one area may reach: its own and its used areas', each read from the unit's bag. */
function viewPrototype(area: ServiceProvider, owner: Map<string, string>): object {
  const allowed = new Set([area.name, ...(area.uses ?? [])]);
  const view = {};
  for (const [name, ownerName] of owner) {
    Object.defineProperty(view, name, {
      get(this: { bag: Services }) {
        if (!allowed.has(ownerName))
          throw new Error(
            `The ${area.name} area uses the ${name} service of ${ownerName}, which it does not declare in uses`,
          );
        return this.bag[name as keyof Services];
      },
    });
  }
  return view;
}
