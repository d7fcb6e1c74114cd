import { startEmbeddedPostgres } from '../../db/embedded';

/**
 * The fleet's PostgreSQL, run as a process of its own (`node postgres.js <data dir> <port>`): the
 * fleet starts it in a process group apart from the terminal's, so Ctrl-C reaches the fleet, which
 * stops the instances first and this last. It writes `url <connection string>` once it accepts
 * connections (read by the fleet, never shown), and stops the server on SIGTERM or SIGINT.
 */
async function serve(dataDir: string, port: number): Promise<void> {
  const log = { info: console.log, warn: console.warn, error: console.error };
  const postgres = await startEmbeddedPostgres(dataDir, port, () => undefined, { log, giveUp: () => process.exit(1) });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await postgres.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  console.log(`url ${postgres.url()}`);
}

const [dataDir, port] = process.argv.slice(2);
serve(dataDir, Number(port)).catch((error: unknown) => {
  console.error(`the fleet's PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
