import type { Services } from './services';
import type { UnitOfWork } from './unit-of-work';

/**
 * What one area tells the others happened, after it is committed. Each area adds its events by
 * declaration merging (`declare module '../kernel/events' { interface DomainEvents { ... } }`).
 */
export interface DomainEvents {}

export type DomainEvent = { [K in keyof DomainEvents]: { type: K } & DomainEvents[K] }[keyof DomainEvents];

export type EventHandler<K extends keyof DomainEvents> = (
  event: { type: K } & DomainEvents[K],
  services: Services,
  uow: UnitOfWork,
) => Promise<void>;

/** An area's reactions to other areas' events. */
export type EventHandlers = { [K in keyof DomainEvents]?: EventHandler<K> };

export interface EventBus {
  /** The areas that react to the event: one outbox row each, so each reaction happens once whatever the others do. */
  reactionsTo(event: DomainEvent): string[];
}
