/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * SQLSTATEs of a server that is not there for us right now: connection exceptions (08), the
 * server shutting down or starting (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now) and too many connections (53300).
 */
const UNAVAILABLE_SQLSTATE = /^(08\w{3}|57P0[1-3]|53300)$/;

/** node-pg's own texts for a connection lost, never made, or a pool that could not give one in time. */
const PG_MESSAGES = /Connection terminated|Connection ended unexpectedly|not queryable|timeout exceeded when trying to connect|Client was closed|Cannot use a pool after calling end/i;

/**
 * Whether an error says the database could not be reached (refused, lost, restarting, shutting
 * down), as opposed to a query that failed on its own: the answer is then a 503 the client may
 * retry, not a 500. Looks through AggregateError (several addresses tried) and `cause`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1);
}
