// First: tracing, when on, must patch http, pg and graphql before anything loads them.
import { tracing } from './server/tracing';
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config';
import { createLogger, logDestination } from './logger';
import { createApp } from './server/app';
import { applyHeapMode } from './server/heap-mode';

/** engines says 24; a direct `node dist/src/main.js` on an older Node would fail later in less clear ways. */
const REQUIRED_NODE_MAJOR = 24;

async function main() {
  if (Number(process.versions.node.split('.')[0]) < REQUIRED_NODE_MAJOR) {
    throw new ConfigError(
      `Node.js ${REQUIRED_NODE_MAJOR} or later is needed, this is ${process.version}: start with npm start, which runs the Node that npm ci installed`,
    );
  }
  const config = loadConfig();
  applyHeapMode(config.HEAP_MODE);
  const log = createLogger(config.LOG_LEVEL, logDestination(config.LOG_FORMAT));
  if (config.jwtSecretGenerated)
    log.warn(`JWT_SECRET is not set: using a generated secret kept in ${config.DATA_DIR}/jwt-secret`);
  if (!config.DATABASE_URL)
    log.info(`DATABASE_URL is not set: starting the embedded PostgreSQL under ${config.DATA_DIR}/postgres`);
  let stop: (signal: string, status?: number) => Promise<void> = () => Promise.resolve();
  const app = await createApp(config, log, {
    onDatabaseLost: (error) => {
      log.fatal(
        { err: { message: error.message } },
        'the database is gone for good: stopping so that the process manager starts the service again',
      );
      void stop('database lost', 1);
    },
  });
  const address = await app.listen(config.PORT, config.HOST);
  const base = `http://localhost:${address.port}`;
  log.info(
    `Listening: GraphQL ${base}/graphql (HTTP and WebSocket), REST docs ${base}/docs, health ${base}/health (Node ${process.version})`,
  );

  let stopping = false;
  stop = async (signal: string, status = 0) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing requests under way, then stopping`);
    // Whatever state the database or a peer is in, the process ends within its grace period.
    setTimeout(() => {
      log.error(`shutdown took longer than SHUTDOWN_GRACE_MS (${config.SHUTDOWN_GRACE_MS} ms): exiting now`);
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS).unref();
    try {
      await app.close();
      await tracing.stop();
      log.info('stopped');
      process.exit(status);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  // A bad setting is one clear line; anything else is a start-up failure with its reason.
  console.error(
    error instanceof ConfigError
      ? error.message
      : `Start-up failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
