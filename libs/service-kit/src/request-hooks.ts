import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import type { Logger } from 'pino';
import { RECEIVED_BODY_SHA256 } from './internal-auth';

/** At most this much of a refused body is read and thrown away before the answer (see drainUnreadBody). */
export const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;
/** ... and for at most this long. */
export const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Reads and throws away what is left of a request body nobody read (a 413 or 415, a 401 on an
 * upload, an upstream that answered early), so the client has finished sending when the answer
 * goes out and the connection then closes with nothing unread. A client that was cut off in the
 * middle of its upload would otherwise get a reset instead of the answer, and a keep-alive
 * connection would hold the rest of the old body in front of the next request. Past `maxBytes`
 * or `timeoutMs` it gives up: the answer goes out and the connection is closed anyway.
 */
export function drainUnreadBody(raw: IncomingMessage, maxBytes = DRAIN_LIMIT_BYTES, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  // A body declared larger than the cap would be given up on anyway: answer at once.
  if (Number(raw.headers['content-length']) > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.removeListener('end', finish);
      raw.removeListener('error', finish);
      raw.removeListener('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    timer.unref();
    // Whatever it was piped into (a body hash, an upstream call) is no longer listening.
    raw.unpipe();
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}

/** Whether a request declares a body (HTTP/1.1: a content-length above 0, or a transfer-encoding). */
export function hasBody(headers: IncomingMessage['headers']): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** API calls are logged at info, one line each; anything else (health checks, static files, images) at debug. */
export function requestLogLevel(url: string): 'info' | 'debug' {
  return url.startsWith('/api/') || url.startsWith('/internal/') ? 'info' : 'debug';
}

/**
 * The hooks every service's fastify gets: the body's SHA-256 as it is read (the internal
 * signature's body hash), an early answer's unread body drained before it goes out, and one log
 * line per request.
 */
export function registerRequestHooks(server: FastifyInstance, logger: Logger): void {
  // The SHA-256 of every body as it is read, for the internal signature's body hash.
  // The hooks below take fastify's `done` callback rather than being async: an async hook costs a
  // promise and a turn of the microtask queue on every request, even when it has nothing to do.
  server.addHook('preParsing', (request, _reply, payload, done) => {
    // Most calls (every GET) carry no body: no hash and no extra stream for them.
    if (!hasBody(request.headers)) return done(null, payload);
    const hash = createHash('sha256');
    const hashed = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        (request as unknown as Record<symbol, string>)[RECEIVED_BODY_SHA256] = hash.digest('hex');
        done();
      },
    });
    payload.on('error', (error) => hashed.destroy(error));
    done(null, payload.pipe(hashed));
  });

  // An answer that goes out before its request body was read: the rest of the body is drained
  // first and the connection closes after the answer (a request still half-read must never
  // sit in front of the next one on a keep-alive connection). `complete` is false only on a
  // real socket whose body has not all arrived (an injected request has no such property).
  server.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (raw.complete !== false || raw.destroyed) return done(null, payload);
    reply.header('connection', 'close');
    void drainUnreadBody(raw).then(() => done(null, payload));
  });

  // One structured line per API call at info; health checks and static files at debug. The
  // logger hides tokens in URLs (see logger.ts).
  server.addHook('onResponse', (request, reply, done) => {
    const level = requestLogLevel(request.url);
    if (logger.isLevelEnabled(level)) logger[level]({ reqId: request.id, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'solicitud');
    done();
  });
}
