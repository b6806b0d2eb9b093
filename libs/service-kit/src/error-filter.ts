import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { ErrorBody } from '@tiendita/contracts';
import { ErrorCode } from '@tiendita/contracts';
import { DomainError } from '@tiendita/eventsourcing';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isDatabaseUnavailable } from './database-errors';
import { httpStatusOf, SERVICE_UNAVAILABLE_MESSAGE, TooManyRequestsError } from './http-errors';

/** An error already turned into an HTTP answer. */
export interface MappedError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

const messageByStatus: Record<number, [string, string]> = {
  400: ['Solicitud inválida', ErrorCode.validation],
  401: ['No autenticado', ErrorCode.unauthorized],
  403: ['Acceso denegado', ErrorCode.forbidden],
  404: ['Ruta no encontrada', ErrorCode.notFound],
  405: ['Método no permitido', ErrorCode.methodNotAllowed],
  406: ['Formato de respuesta no disponible', ErrorCode.notAcceptable],
  408: ['La solicitud tardó demasiado', ErrorCode.requestTimeout],
  409: ['Conflicto con el estado actual', ErrorCode.conflict],
  413: ['La solicitud es demasiado grande', ErrorCode.payloadTooLarge],
  415: ['Tipo de contenido no soportado', ErrorCode.unsupportedMediaType],
  422: ['Solicitud inválida', ErrorCode.validation],
  429: ['Demasiados intentos. Espera unos minutos e inténtalo de nuevo.', ErrorCode.tooManyRequests],
  503: [SERVICE_UNAVAILABLE_MESSAGE, ErrorCode.unavailable],
};

const internal: MappedError = { status: 500, body: { message: 'Error interno del servidor', code: ErrorCode.internal } };

/** Per-field messages of a zod error: `{ fields: { "lines.0.quantity": "..." } }`, first message per field. */
export function zodFieldMessages(error: z.core.$ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

function isDomainError(error: unknown): error is DomainError {
  if (error instanceof DomainError) return true;
  // A second copy of the library (a dist/src mix) still carries the same shape and class name.
  if (!(error instanceof Error)) return false;
  if (typeof (error as Partial<DomainError>).code !== 'string') return false;
  for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === 'DomainError') return true;
  }
  return false;
}

function fastifyCode(error: HttpException): string | undefined {
  const cause = (error as { cause?: unknown }).cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/**
 * Maps anything thrown while serving a request to the one error body. Pure, so the gateway
 * can reuse it for errors of its own. No 5xx carries text of its own to the client: a 503 keeps
 * the Spanish message our code gave it (a DomainError or an explicit body: "inventory is down,
 * nothing was saved"), every other 5xx is 'Error interno del servidor'.
 */
export function mapError(error: unknown): MappedError {
  const mapped = mapAnyError(error);
  if (mapped.status >= 500 && mapped.status !== 503) return { status: mapped.status, body: { ...internal.body } };
  return mapped;
}

function mapAnyError(error: unknown): MappedError {
  if (isDomainError(error)) {
    const body: ErrorBody = { message: error.message, code: error.code };
    if (error.details) body.details = error.details;
    const retry = error instanceof TooManyRequestsError ? error.retryAfterSeconds : undefined;
    return { status: httpStatusOf(error), body, ...(retry ? { headers: { 'retry-after': String(retry) } } : {}) };
  }
  if (error instanceof z.core.$ZodError) {
    const fields = zodFieldMessages(error);
    return {
      status: 400,
      body: { message: error.issues[0]?.message ?? 'Solicitud inválida', code: ErrorCode.validation, details: { fields } },
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    // Our own code may answer with an explicit body: new HttpException({ message, code }, status).
    if (typeof response === 'object' && response !== null && typeof (response as ErrorBody).message === 'string' && typeof (response as ErrorBody).code === 'string') {
      const { message, code, details } = response as ErrorBody;
      return { status, body: details ? { message, code, details } : { message, code } };
    }
    const code = fastifyCode(error);
    if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error as { cause?: unknown }).cause instanceof SyntaxError) {
      return { status: 400, body: { message: 'JSON inválido', code: ErrorCode.validation } };
    }
    if (status >= 500) return status === 503 ? { status, body: { message: messageByStatus[503][0], code: ErrorCode.unavailable } } : internal;
    const [message, fallbackCode] = messageByStatus[status] ?? ['Solicitud inválida', ErrorCode.validation];
    return { status, body: { message, code: fallbackCode } };
  }
  // A lost or refused database connection passes: the client is told to try again, in Spanish.
  if (isDatabaseUnavailable(error)) return { status: 503, body: { message: SERVICE_UNAVAILABLE_MESSAGE, code: ErrorCode.unavailable } };
  return internal;
}

/** The one exception filter of every service: `{ message, code, details? }`, never a stack trace. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const mapped = mapError(exception);
    if (mapped.status === 503 && isDatabaseUnavailable(exception)) {
      this.logger.warn({ err: exception, method: request?.method, url: request?.url }, 'Base de datos no disponible: se responde 503');
    } else if (mapped.status >= 500) {
      this.logger.error({ err: exception, method: request?.method, url: request?.url }, 'Error no controlado al atender la solicitud');
    }
    if (reply.sent) return;
    reply.status(mapped.status);
    for (const [name, value] of Object.entries(mapped.headers ?? {})) reply.header(name, value);
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.send(mapped.body);
  }
}
