import { sep } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

/**
 * Personal data and secrets never reach a log line, wherever they sit in the logged object (pino
 * `redact` wildcards match one level, so each name is listed at the depths we log objects).
 */
const SECRET_FIELDS = [
  'email',
  'learnerEmail',
  'guardianEmail',
  'password',
  'newPassword',
  'passwordHash',
  'birthDate',
  'displayName',
  'token',
  'refreshToken',
  'accessToken',
  'authorization',
  'cookie',
  'secret',
  'apiKey',
];
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

/** What an error that came from PostgreSQL may say in a log: its kind and where, never the statement or a row. */
const SAFE_DRIVER_FIELDS = ['code', 'severity', 'table', 'column', 'constraint', 'routine', 'schema'] as const;

function isDriverError(error: Record<string, unknown>): boolean {
  return (
    typeof error.sqlState === 'string' ||
    (typeof error.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(error.code) &&
      ('severity' in error || 'routine' in error)) ||
    'sql' in error ||
    'query' in error ||
    (typeof error.name === 'string' && error.name.endsWith('Exception') && 'code' in error)
  );
}

/**
 * pino's error serializer, except that a log line carries no stack trace, only `where` (the first
 * frame in the service's own code, relative to its directory), and that an error from the database
 * keeps no statement, no parameters and no failing row: MikroORM and knex put the SQL with its
 * values into the message (a failed sign-up logged the e-mail, birth date and password hash) and pg
 * adds `detail`.
 */
export function safeError(error: unknown, depth = 0): unknown {
  if (!error || typeof error !== 'object') return error;
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  const where = ownFrame((error as Error).stack);
  if (isDriverError(error as Record<string, unknown>)) {
    const raw = error as Record<string, unknown>;
    const safe: Record<string, unknown> = { type: serialized.type ?? (error as Error).name };
    for (const field of SAFE_DRIVER_FIELDS) if (raw[field] !== undefined) safe[field] = raw[field];
    safe.message = `${safe.type} (SQLSTATE ${String(raw.code ?? raw.sqlState ?? 'unknown')})${raw.table ? ` on ${String(raw.table)}` : ''}${raw.column ? `.${String(raw.column)}` : ''}${raw.constraint ? ` (${String(raw.constraint)})` : ''}`;
    if (where) safe.where = where;
    return safe;
  }
  // pino folds the causes' messages and stacks into the error's own: each is serialized on its own instead.
  serialized.message = (error as Error).message;
  delete serialized.stack;
  if (where) serialized.where = where;
  const cause = (error as { cause?: unknown }).cause;
  if (cause && depth < 4) serialized.cause = safeError(cause, depth + 1);
  return serialized;
}

/** The directory that holds `src/` (the project's, or `dist/` when built): frames are named from there. */
const SERVICE_ROOT = `${__dirname.slice(0, __dirname.lastIndexOf(`${sep}src`))}${sep}`;

/** The first frame of a stack in the service's own files (not a library's, not node's), as `file:line:column` from the service's root. */
function ownFrame(stack: string | undefined): string | undefined {
  for (const line of (stack ?? '').split('\n')) {
    const frame = /^\s+at (?:.*?\()?(?:file:\/\/)?([^()]+?:\d+:\d+)\)?$/.exec(line)?.[1];
    if (frame?.startsWith(SERVICE_ROOT) && !frame.includes(`${sep}node_modules${sep}`))
      return frame.slice(SERVICE_ROOT.length);
  }
  return undefined;
}

export function createLogger(level: string, destination?: DestinationStream) {
  return pino(
    {
      level,
      base: { service: 'learning-platform-api' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: safeError, error: safeError },
    },
    destination,
  );
}

/**
 * Logs a failure at once, and those that follow it within `windowMs` as one line when the window
 * ends (how many, and the last of them): a dependency that is away fails every poll, and a database
 * restart of one second wrote three hundred lines that said the same thing.
 */
export function foldRepeats(log: Logger, msg: string, windowMs: number): (error: unknown) => void {
  let repeats = 0;
  let last: unknown;
  let window: NodeJS.Timeout | undefined;
  return (error) => {
    if (window) {
      repeats++;
      last = error;
      return;
    }
    log.error({ err: error }, msg);
    window = setTimeout(() => {
      window = undefined;
      if (repeats) log.error({ err: last, repeats }, `${msg} (repeated)`);
      repeats = 0;
    }, windowMs).unref();
  };
}

export type LogFormat = 'auto' | 'pretty' | 'json';

/**
 * Where the service's log lines go: JSON lines on stdout for collectors (the default when stdout is
 * a pipe or a file), or on a terminal pino-pretty's lines (levels by name, clock times). Each line is
 * prettified and written before the logging call returns: pino-pretty's own stream passes lines
 * through transforms on later ticks, and a process.exit right after a log call (the "stopped" line)
 * would lose them.
 */
export function logDestination(
  format: LogFormat,
  stdout: { isTTY?: boolean } = process.stdout,
): DestinationStream | undefined {
  if (format === 'json' || (format === 'auto' && !stdout.isTTY)) return undefined;
  const prettify = prettyFactory({
    colorize: Boolean(stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
  const out = pino.destination({ fd: 1, sync: true });
  return { write: (line: string) => out.write(prettify(line)) };
}
