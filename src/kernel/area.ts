import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import type { Request, RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { and } from 'graphql-shield';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { NonEmptyArray } from 'type-graphql';
import type { BodyLimits } from './body-limit';
import type { Context } from './context';
import type { Deps } from './deps';
import type { EventHandlers } from './events';
import type { AppError } from './errors';
import type { DeclaringRouter } from './http-router';
import { type NodeSource, registerNodes } from './node';
import type { RateLimitRule } from './rate-limit';
import type { RestRoute } from './rest-route';
import type { ServiceFactories, Services } from './services';
import type { UnitOfWork } from './unit-of-work';

export type ShieldRule = Parameters<typeof and>[0];
export type FieldRules = Record<string, ShieldRule>;
/** An area's rules: per type, one rule for every field, or a rule per field. */
export type AreaRules = Record<string, ShieldRule | FieldRules>;

/**
 * Everything of a user's that an area holds, for export and erasure (filled by privacy operations).
 * Like the area's event handlers and jobs, its handlers get the area's view of the services: its
 * own and those of the areas in its `uses`.
 */
export interface PersonalDataHandler {
  /** The entities whose rows belong to a user, directly or through another entity. */
  entities: EntityClass<any>[];
  /** The user's data as plain JSON, for the export. */
  export?(userId: string, services: Services, uow: UnitOfWork): Promise<unknown>;
  /** Deletes or pseudonymises the user's data, in the caller's transaction. */
  erase?(userId: string, pseudonym: string, services: Services, uow: UnitOfWork): Promise<void>;
}

/** A root field of the schema, by its type: what a route that GraphQL does not run stands for. */
export type RootField = `${'Query' | 'Mutation' | 'Subscription'}.${string}`;

/**
 * What a route that GraphQL does not run declares: the rule of the root field it stands for, with
 * the limits that rule declares. The request chain counts those limits and applies the rule before
 * the route's handler runs, as it does for the operations of GraphQL and the route table.
 */
export interface RouteRule {
  rule: ShieldRule;
  field: RootField;
  /**
   * Verdicts kept per person until their access changes (a refusal of the person too), for a route
   * called often: a kernel AccessCache, of which the chain needs only `get`.
   */
  verdicts?: { get(personId: string, make: () => Promise<true | AppError>): Promise<true | AppError> };
}

/** What the body of a JSON route is: the `$input` of a route-table row's operation. */
export interface RouteInput {
  /** The row's operation, whose `$input` the body is checked as. */
  operation: string;
  /** The input's class, whose own checks (class-validator) follow the coercion. */
  type: new () => object;
  /** The body taken as it is, when the checks would hand it back unchanged (a hot route's common case); else undefined. */
  plain?(body: unknown): object | undefined;
}

/**
 * A request's context from the chain: without a rule, the caller as identified (a route that
 * decides itself, a webhook that is signed, a page); with one, once the rule (given the named
 * arguments) has let the caller through.
 */
export type RouteContext = (req: Request, rule?: RouteRule, args?: Record<string, unknown>) => Promise<Context>;

/**
 * Serves the area's paths that the route table cannot (files, streams, pages) or that answer
 * without a GraphQL round trip; the schema is there to check inputs as GraphQL would.
 */
export type HttpRoutes = (deps: Deps, context: RouteContext, schema: GraphQLSchema) => DeclaringRouter;

/**
 * A `POST` path with a JSON body that an area answers itself, on node's own request and response:
 * the server runs the pipeline every request goes through (request id, CORS, token, rate limits,
 * the JSON body within BODY_LIMIT) without express's routing when the request URL is exactly `path`,
 * and through express otherwise (a query string, a path spelled differently); both end here.
 */
export interface JsonRoute {
  path: string;
  /** The rule the chain applies (and whose limits it counts) before `handle`. */
  rule?: RouteRule;
  /** The body's checks, which the chain makes after the rule: `handle` gets the checked input. */
  input?: RouteInput;
  /**
   * The route starts its work while the request is still being counted in its rate-limit buckets:
   * `handle` gets the count under way and waits for it before any effect it cannot take back.
   * Without it, `handle` runs once the request is counted.
   */
  overlapsCount?: boolean;
  handle(
    ctx: Context,
    body: unknown,
    req: IncomingMessage,
    res: ServerResponse,
    counted?: Promise<void>,
  ): Promise<void>;
}

/** A route served before express, with what it does differently from an area's JSON route. */
export interface DirectRoute extends JsonRoute {
  /** An area's route: POST. */
  method?: string;
  /**
   * The path's parameters when it names this route, a query string allowed (a REST row). Without
   * it, the URL must be the path exactly (an area's route): other spellings go to express.
   */
  match?(path: string): { params: Record<string, string> } | false;
  /** The steps that read the body (an area's route: JSON within BODY_LIMIT). */
  readBody?: RequestHandler[];
  /**
   * The route counts the request in the default bucket itself, with the buckets its rule declares
   * (an area's route with a rule): the steps hold that count for it, and one round trip of a shared
   * store counts them all.
   */
  countsCaller?: boolean;
  /** Which requests to the path it serves (an area's route: all); express has the others. */
  serves?(req: IncomingMessage): boolean;
  /** How a failure is answered (an area's route: the error object). */
  answerError?(log: Logger, requestId: string, res: ServerResponse, error: unknown): void;
}

/**
 * A gauge an area reports on `/metrics`, read at each scrape: its series, one per set of labels.
 * Kept free of the metrics library, which only the server knows.
 */
export interface AreaGauge {
  name: string;
  help: string;
  labelNames: string[];
  read(): { labels: Record<string, string>; value: number }[];
}

/** The regions an area's rules name, and which country's accounts belong to which. */
export interface Residency {
  regions: string[];
  /** The region of a country's accounts (an ISO 3166-1 alpha-2 code, any case); null when its law names none. */
  regionOf(country: string): string | null;
}

/**
 * One area of the specification as a value: the composition root reads these, so adding an area
 * is a folder and one line in `src/areas.ts`.
 */
export interface Area {
  name: string;
  /**
   * The areas whose exports and services this one uses (by their names). Its service factories see
   * only these areas' services and their own; the layering test checks the imports and the
   * `services.x` calls of its folder against this list, and that no two areas use each other.
   */
  uses?: string[];
  entities?: EntityClass<any>[];
  resolvers?: NonEmptyArray<Function>;
  rules?: AreaRules;
  routes?: RestRoute[];
  /** Mutations whose input may be larger than BODY_LIMIT, with the body each needs (REST and GraphQL). */
  bodyLimits?: BodyLimits;
  http?: HttpRoutes;
  jsonRoutes?: (deps: Deps, schema: GraphQLSchema) => JsonRoute[];
  /** Rate-limit buckets of the area's own, counted in the shared store like the kernel's (by name, per key). */
  rateLimits?: (config: Config) => Record<string, RateLimitRule>;
  /**
   * Regions (`vn`) whose law keeps the personal data of their accounts in the country, each with a
   * database of its own beside global's, and the region of a country's accounts (docs/residency.md).
   */
  residency?: Residency;
  /**
   * The area's tables of shared data (courses, products...): written in global's database only, and
   * copied read-only into every region's by PostgreSQL's logical replication (docs/residency.md).
   * Each needs a primary key; a migration writes their rows in global's database only.
   */
  sharedTables?: string[];
  /** Migrations of the area's own tables; all areas' run in the order of their names. */
  migrations?: MigrationObject[];
  services?: ServiceFactories;
  /** Reactions to other areas' domain events, delivered after their commit. */
  on?: EventHandlers;
  /** Defines the area's Agenda jobs before the queue starts. */
  jobs?: (deps: Deps, units: (work: (services: Services, uow: UnitOfWork) => Promise<void>) => Promise<void>) => void;
  personalData?: PersonalDataHandler;
  /** Starts what the area keeps per instance (caches, listeners), once the database is open and before the first request. */
  start?: (deps: Deps) => Promise<void> | void;
  /** Writes what the area holds in memory and closes its clients, on shutdown (after the jobs, before the events and the database). */
  close?: (deps: Deps) => Promise<void>;
  /** What the area reports on `/metrics` (its pools and queues). */
  gauges?: (deps: Deps) => AreaGauge[];
  /** The area's types that implement Node: how `node(id:)` finds and reads them. */
  nodes?: NodeSource[];
}

export const defineArea = (area: Area): Area => {
  registerNodes(area.nodes ?? []);
  return area;
};
