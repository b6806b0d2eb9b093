import { ErrorCode } from '@tiendita/contracts';
import { ConcurrencyError, DomainError, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';

// The domain's typed errors, re-exported so that an HTTP process (the gateway) needs one import.
export { ConcurrencyError, DomainError, IllegalStateError, NotFoundError, ValidationError };

/**
 * An error of the HTTP edge, not of any domain: it carries its status. The error filter answers
 * it as `{ message, code, details? }` with that status.
 */
export class HttpError extends DomainError {
  constructor(
    message: string,
    readonly status: number,
    code: string,
    details?: Record<string, unknown>,
  ) {
    super(message, code, details);
  }
}

/** 401: no valid session or caller. */
export class UnauthorizedError extends HttpError {
  constructor(message = 'No autenticado') {
    super(message, 401, ErrorCode.unauthorized);
  }
}

/** 403: the caller may not do this. */
export class ForbiddenError extends HttpError {
  constructor(message = 'Acceso denegado') {
    super(message, 403, ErrorCode.forbidden);
  }
}

/** 413: the body or file is too large. */
export class PayloadTooLargeError extends HttpError {
  constructor(message = 'El archivo o la solicitud es demasiado grande') {
    super(message, 413, ErrorCode.payloadTooLarge);
  }
}

/** 429: rate limit reached; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyRequestsError extends HttpError {
  constructor(
    message = 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.',
    readonly retryAfterSeconds?: number,
  ) {
    super(message, 429, ErrorCode.tooManyRequests, retryAfterSeconds ? { retryAfterSeconds } : undefined);
  }
}

/** The one text of a 503 nobody gave a message of its own: a service down, the database unreachable, a closing server. */
export const SERVICE_UNAVAILABLE_MESSAGE = 'Servicio no disponible, inténtalo de nuevo en un momento';

/** 503: the service called could not be reached, did not answer in time, or cannot serve this now. */
export class ServiceUnavailableError extends HttpError {
  constructor(message = SERVICE_UNAVAILABLE_MESSAGE, details?: Record<string, unknown>) {
    super(message, 503, ErrorCode.unavailable, details);
  }
}

/** The HTTP status of each kind of domain error (by class name, so a second copy of the library maps the same). */
const STATUS_BY_KIND: Record<string, number> = {
  ValidationError: 400,
  NotFoundError: 404,
  IllegalStateError: 409,
  ConcurrencyError: 409,
};

/** The status of a code when the error's kind does not tell (a bare DomainError). */
const STATUS_BY_CODE: Record<string, number> = {
  [ErrorCode.validation]: 400,
  [ErrorCode.unauthorized]: 401,
  [ErrorCode.forbidden]: 403,
  [ErrorCode.notFound]: 404,
  [ErrorCode.conflict]: 409,
  [ErrorCode.concurrency]: 409,
  [ErrorCode.payloadTooLarge]: 413,
  [ErrorCode.tooManyRequests]: 429,
  [ErrorCode.internal]: 500,
  [ErrorCode.unavailable]: 503,
};

/**
 * The HTTP status of a domain error: an HttpError's own, else its kind's (validation 400, not
 * found 404, illegal state and concurrency 409), else its code's; a rule broken otherwise is 400.
 */
export function httpStatusOf(error: DomainError): number {
  const own = (error as Partial<HttpError>).status;
  if (typeof own === 'number') return own;
  for (let proto = Object.getPrototypeOf(error); proto && proto !== Error.prototype; proto = Object.getPrototypeOf(proto)) {
    const status = STATUS_BY_KIND[(proto.constructor as { name?: string } | undefined)?.name ?? ''];
    if (status) return status;
  }
  return STATUS_BY_CODE[error.code] ?? 400;
}
