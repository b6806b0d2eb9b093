import { ErrorCode } from '@tiendita/contracts';
import { DomainError, HttpError, mapError, type MappedError, PayloadTooLargeError } from '@tiendita/service-kit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';

export { ServiceUnavailableError } from '@tiendita/service-kit';

export const BODY_TOO_LARGE_MESSAGE = 'La solicitud es demasiado grande';
export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = 'Tipo de contenido no soportado: envía los datos como JSON';

/** 415: a body that is not JSON where only JSON is accepted. */
function unsupportedMediaType(): HttpError {
  return new HttpError(UNSUPPORTED_MEDIA_TYPE_MESSAGE, 415, ErrorCode.unsupportedMediaType);
}

/**
 * The content-type parser's answer to a body that is not JSON on a JSON-only route: nothing for
 * an empty body, else 413 when it is (or declares to be) larger than `limit`, 415 otherwise.
 * A declared length decides without reading; a chunked body is read only up to the limit.
 */
export function refuseNonJsonBody(
  headers: IncomingHttpHeaders,
  payload: Readable,
  limit: number,
  done: (error: Error | null, body?: undefined) => void,
): void {
  const declared = headers['content-length'] === undefined ? NaN : Number(headers['content-length']);
  if (Number.isFinite(declared)) {
    if (declared === 0) return done(null, undefined);
    return done(declared > limit ? new PayloadTooLargeError(BODY_TOO_LARGE_MESSAGE) : unsupportedMediaType());
  }
  let seen = 0;
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', settle);
    done(error, undefined);
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) {
      payload.pause();
      settle(new PayloadTooLargeError(BODY_TOO_LARGE_MESSAGE));
    }
  };
  const onEnd = () => settle(seen === 0 ? null : unsupportedMediaType());
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', settle);
}

/** kit's mapping plus fastify's own errors (body limit, bad JSON, bad content type). */
export function mapGatewayError(error: unknown): MappedError {
  const fastifyError = error as Partial<FastifyError>;
  if (!(error instanceof DomainError) && typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_')) {
    if (fastifyError.statusCode === 413) return mapError(new PayloadTooLargeError(BODY_TOO_LARGE_MESSAGE));
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError.statusCode === 400) {
      return { status: 400, body: { message: 'JSON inválido', code: ErrorCode.validation } };
    }
    if (fastifyError.statusCode === 415) return mapError(unsupportedMediaType());
  }
  if (error instanceof SyntaxError) return { status: 400, body: { message: 'JSON inválido', code: ErrorCode.validation } };
  return mapError(error);
}

/** Fastify error handler of the gateway's /api scope: the shared body, never a stack trace nor internal text. */
export function errorHandler(logger: Logger) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapGatewayError(error);
    if (mapped.status >= 500 && mapped.status !== 503) logger.error({ err: error, method: request.method, url: request.url }, 'Error no controlado en el gateway');
    for (const [name, value] of Object.entries(mapped.headers ?? {})) reply.header(name, value);
    reply.status(mapped.status).type('application/json; charset=utf-8').send(mapped.body);
  };
}
