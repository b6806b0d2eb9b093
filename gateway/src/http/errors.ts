import { ErrorCode, type ErrorBody } from '@tiendita/contracts';
import { DomainError, PayloadTooLargeError } from '@tiendita/eventsourcing';
import { mapError, type MappedError } from '@tiendita/service-kit';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** 503 when a service cannot be reached. */
export class ServiceUnavailableError extends DomainError {
  constructor(message = 'Servicio no disponible, inténtalo de nuevo en un momento') {
    super(message, 503, ErrorCode.unavailable);
  }
}

/** An error answer of a service, passed on as it came (status, code, message, details). */
export class UpstreamError extends DomainError {
  constructor(status: number, body: ErrorBody) {
    super(body.message, status, body.code, body.details);
  }
}

/** kit's mapping plus fastify's own errors (body limit, bad JSON, bad content type). */
export function mapGatewayError(error: unknown): MappedError {
  const fastifyError = error as Partial<FastifyError>;
  if (!(error instanceof DomainError) && typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_')) {
    if (fastifyError.statusCode === 413) return mapError(new PayloadTooLargeError('La solicitud es demasiado grande'));
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError.statusCode === 400) {
      return { status: 400, body: { message: 'JSON inválido', code: ErrorCode.validation } };
    }
    if (fastifyError.statusCode === 415) return { status: 415, body: { message: 'Tipo de contenido no soportado', code: 'UNSUPPORTED_MEDIA_TYPE' } };
  }
  if (error instanceof SyntaxError) return { status: 400, body: { message: 'JSON inválido', code: ErrorCode.validation } };
  return mapError(error);
}

/** Fastify error handler of the gateway's /api scope: the shared body, never a stack trace. */
export function errorHandler(logger: Logger) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapGatewayError(error);
    if (mapped.status >= 500 && mapped.status !== 503) logger.error({ err: error, method: request.method, url: request.url }, 'Error no controlado en el gateway');
    for (const [name, value] of Object.entries(mapped.headers ?? {})) reply.header(name, value);
    reply.status(mapped.status).type('application/json; charset=utf-8').send(mapped.body);
  };
}
