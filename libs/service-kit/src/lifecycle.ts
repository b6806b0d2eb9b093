import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@tiendita/contracts';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import { SERVICE_UNAVAILABLE_MESSAGE } from './http-errors';

/** How long a closing service lets the requests in flight finish before it closes what they use. */
export const SHUTDOWN_DRAIN_MS = 7000;

const DRAIN_STATE = Symbol('tiendita.drain');

interface DrainState {
  draining: boolean;
}

function state(fastify: FastifyInstance): DrainState {
  const holder = fastify as unknown as { [DRAIN_STATE]?: DrainState };
  holder[DRAIN_STATE] ??= { draining: false };
  return holder[DRAIN_STATE];
}

/**
 * The closing answer of every process: while it drains, a request that still reaches it (on a
 * keep-alive connection, pipelined) is answered 503 'Servicio no disponible, inténtalo de nuevo en
 * un momento' in the shared error body, with Connection: close; answers to the requests in flight
 * close their connection too. Fastify's and Nest's own English 503 body is never sent
 * (return503OnClosing: false in the adapter's options).
 */
export function registerDrainHooks(fastify: FastifyInstance): void {
  const drain = state(fastify);
  fastify.addHook('onRequest', (_request, reply, done) => {
    if (!drain.draining) return done();
    reply.header('connection', 'close').code(503).type('application/json; charset=utf-8').send({ message: SERVICE_UNAVAILABLE_MESSAGE, code: ErrorCode.unavailable });
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (drain.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * The first half of a shutdown, before the app's modules close their clients and pools: stop
 * accepting connections, answer late requests 503 in Spanish, and wait (at most `timeoutMs`) for
 * the requests in flight to be answered. Idle keep-alive connections close at once; what is still
 * open after the wait is cut. Nest's own close() runs the destroy hooks before it closes the server,
 * so a checkout in flight would otherwise lose its clients under it (ClientDestroyedError, a 500).
 */
export async function drainServer(app: NestFastifyApplication, timeoutMs = SHUTDOWN_DRAIN_MS): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  state(fastify).draining = true;
  const server = app.getHttpServer() as Server;
  if (!server.listening) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
