import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { GraphQLFormattedError } from 'graphql';
import { applyMiddleware } from 'graphql-middleware';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { type EmbeddedPostgres, startEmbeddedPostgres, type Supervision } from '../db/embedded';
import { prepareAppRole, readOnlyForService } from '../db/app-role';
import { GLOBAL_REGION } from '../db/regions';
import { RATE_LIMIT_TABLE_DDL } from '../kernel/rate-limit-stores';
import type { Context } from '../kernel/context';
import type { Deps } from '../kernel/deps';
import type { OutboxRelay } from '../kernel/outbox';
import { endedSessionsOf } from '../kernel/sessions';
import { permissionsFor } from '../permissions';
import { closeDeps, createDeps } from './deps';
import { formatGraphQLError } from './graphql-errors';
import { inputGuard } from './input-guard';
import { httpPipeline } from './http';
import { introspectionPlugin } from './introspection';
import { graphqlMetricsPlugin } from './metrics/graphql';
import { metricsListener } from './metrics/listener';
import { watchState } from './metrics/state';
import { queryCostPlugin } from './query-cost';
import { parseOptions, queryLimitRules } from './query-limits';
import { buildAppSchema } from './schema';
import { createOutboxRelay, defineJobs, jsonRoutes, ruleMap } from './platform';
import { migrateRegions, openRegions, regionUrls, replicateSharedData, sharedTables } from './regions';
import { attachWebSocketServer } from './ws';
import { socketOperationsPlugin } from './ws-operations';

export interface App {
  deps: Deps;
  /** Delivers what commits wrote to global's outbox. */
  relay: OutboxRelay;
  /** Each region's relay, global's first. */
  relays: OutboxRelay[];
  httpServer: Server;
  /** The express pipeline alone, without the routes served before it: tests compare the two. */
  express: Express;
  listen(port: number, host?: string): Promise<AddressInfo>;
  /** Stops taking requests, lets those under way finish, closes sockets, then the database. */
  close(): Promise<void>;
}

/** A step of shutdown that hangs (a connection lost mid-query during a database outage) must not keep the process from stopping. */
const SHUTDOWN_STEP_MS = 5_000;

export interface AppOptions {
  /** The embedded PostgreSQL died and could not be started again: the process should end, non-zero. */
  onDatabaseLost?(error: Error): void;
}

export async function createApp(config: Config, log: Logger, options: AppOptions = {}): Promise<App> {
  const bounded = (step: Promise<unknown>, what: string) =>
    Promise.race([
      step,
      new Promise<void>((resolve) =>
        setTimeout(
          () => (log.warn(`shutdown: ${what} did not close within ${SHUTDOWN_STEP_MS / 1000} s; going on`), resolve()),
          SHUTDOWN_STEP_MS,
        ).unref(),
      ),
    ]);
  const supervision: Supervision | undefined = options.onDatabaseLost && {
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
    giveUp: options.onDatabaseLost,
  };
  const embedded: EmbeddedPostgres | undefined = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(
        config.DATA_DIR,
        config.EMBEDDED_PG_PORT,
        (line) => log.debug({ postgres: line }),
        supervision,
      );
  const ormLog = (message: string) => log.debug({ orm: message });
  const ownerUrls = await regionUrls(config, config.DATABASE_URL ?? embedded!.url());
  await migrateRegions(ownerUrls, ormLog);
  await replicateSharedData(ownerUrls);
  // The service itself runs as a role that owns no table (src/db/app-role.ts), and only reads a
  // region's copies of the shared tables.
  const appUrls = new Map<string, string>();
  for (const [region, ownerUrl] of ownerUrls) {
    if (region === GLOBAL_REGION) {
      appUrls.set(region, config.DATABASE_APP_URL ?? (await prepareAppRole(ownerUrl, [RATE_LIMIT_TABLE_DDL])));
      continue;
    }
    appUrls.set(region, await prepareAppRole(ownerUrl));
    await readOnlyForService(ownerUrl, sharedTables);
  }
  const regionOrms = await openRegions(appUrls, ormLog);
  const orm = regionOrms.get(GLOBAL_REGION)!;
  const databaseUrl = appUrls.get(GLOBAL_REGION)!;
  const others = new Map(
    [...regionOrms]
      .filter(([region]) => region !== GLOBAL_REGION)
      .map(([region, regionOrm]) => [region, { orm: regionOrm, url: appUrls.get(region)! }]),
  );
  const deps = await createDeps(config, log, orm, databaseUrl, others);
  // Before the first request: a restarted instance refuses the tokens of sessions ended before it started.
  const endedSessions = deps.regions.map((region) => endedSessionsOf(region));
  for (const regionSessions of endedSessions) await regionSessions.start();
  for (const area of deps.areas) await area.start?.(deps);
  const rawSchema = await buildAppSchema(deps.pubSub);
  const schema = applyMiddleware(rawSchema, permissionsFor(rawSchema, ruleMap));
  const httpServer = createServer();
  // Production hides the schema from clients but admins: no introspection, no "Did you mean".
  const hideSchema = config.NODE_ENV === 'production';
  // Apollo's, and the WebSocket's for the events of subscriptions (which Apollo does not run).
  const formatError = (formatted: GraphQLFormattedError, error: unknown) =>
    formatGraphQLError(formatted, error, (err) => log.error({ err }, 'graphql operation failed'), hideSchema);
  const apollo = new ApolloServer<Context>({
    schema,
    validationRules: queryLimitRules(config),
    parseOptions: parseOptions(config),
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM and SIGINT: Apollo drains as one step of our shutdown.
    stopOnTerminationSignals: false,
    // Refused by introspectionPlugin unless the caller may see the schema.
    introspection: true,
    hideSchemaDetailsFromClientErrors: hideSchema,
    formatError,
    plugins: [
      inputGuard(ruleMap),
      introspectionPlugin(hideSchema),
      queryCostPlugin(config.GRAPHQL_MAX_COST),
      graphqlMetricsPlugin(deps),
      // Operations sent over the WebSocket run through this server too (ws.ts).
      socketOperationsPlugin(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      { serverWillStart: async () => ({ drainServer: async () => void (await ws.dispose()) }) },
      ApolloServerPluginLandingPageDisabled(),
      // Nothing here sets cache hints; Apollo's default cache-control plugin still hooked every field
      // of every response (a catalog page is thousands), for no header it would ever send.
      ApolloServerPluginCacheControlDisabled(),
    ],
  });
  const ws = attachWebSocketServer(httpServer, apollo, deps, ruleMap, formatError);
  watchState(deps, ws.stats);
  await apollo.start();
  // Each region has its own jobs and outbox, in its own database, and every instance serves every region.
  const relays: OutboxRelay[] = [];
  for (const region of deps.regions) {
    defineJobs(region);
    await region.jobs.start();
    const regionRelay = createOutboxRelay(region);
    regionRelay.start();
    region.relay = regionRelay;
    relays.push(regionRelay);
  }
  const relay = relays[0];
  const pipeline = httpPipeline(deps, apollo, rawSchema, jsonRoutes(deps, rawSchema));
  httpServer.on('request', pipeline.listener);
  const metricsPort = config.METRICS_PORT === undefined ? undefined : metricsListener(deps);

  return {
    deps,
    relay,
    relays,
    httpServer,
    express: pipeline.express,
    async listen(port, host) {
      if (metricsPort) await metricsPort.listen(config.METRICS_PORT!, host);
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => resolve(httpServer.address() as AddressInfo));
      });
    },
    async close() {
      deps.leaving = true;
      log.debug('stopping: http and websocket');
      await bounded(Promise.all([apollo.stop(), metricsPort?.close()]), 'http and websocket');
      for (const regionSessions of endedSessions) regionSessions.stop();
      log.debug('stopping: outbox relays');
      await bounded(Promise.all(relays.map((regionRelay) => regionRelay.stop())), 'outbox relays');
      log.debug('stopping: jobs, mail and events');
      await bounded(closeDeps(deps), 'jobs, mail and events');
      log.debug('stopping: database pool');
      await bounded(Promise.all([...regionOrms.values()].map((regionOrm) => regionOrm.close())), 'database pools');
      log.debug('stopping: embedded database');
      await bounded(embedded?.stop() ?? Promise.resolve(), 'embedded database');
    },
  };
}
