/**
 * Whether an error says the database cannot be reached (down, restarting, refusing connections,
 * or the pool timing out waiting for one), rather than that a statement failed. Such errors answer
 * 503 upstream_unavailable everywhere (docs/errors.md); MikroORM, knex and pg each word them their
 * own way, so the causes are followed and all are recognised here, in one place.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
const SQLSTATE = /^(08\d{3}|57P0[123])$/;
const MESSAGES =
  /Connection terminated|Connection ended unexpectedly|Timeout acquiring a connection|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const { name, code, message } = e as { name?: string; code?: unknown; message?: unknown };
    if (name === 'ConnectionException' || name === 'KnexTimeoutError') return true;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
    e = (e as { cause?: unknown; originalError?: unknown }).cause ?? (e as { originalError?: unknown }).originalError;
  }
  return false;
}
