/**
 * Typed domain errors. They carry their HTTP status and code so that one filter
 * (service-kit) maps them to the error body; the domain itself knows no framework.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: input breaks a rule; details may hold per-field messages. */
export class ValidationError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, 400, 'VALIDATION_ERROR', details);
  }
}

/** 401: no valid session or caller. */
export class UnauthorizedError extends DomainError {
  constructor(message = 'No autenticado') {
    super(message, 401, 'UNAUTHORIZED');
  }
}

/** 403: the caller may not do this. */
export class ForbiddenError extends DomainError {
  constructor(message = 'Acceso denegado') {
    super(message, 403, 'FORBIDDEN');
  }
}

/** 404: unknown, or belonging to another tenant (never tell which). */
export class NotFoundError extends DomainError {
  constructor(message = 'No encontrado') {
    super(message, 404, 'NOT_FOUND');
  }
}

/** 409: the aggregate is in a state where the command is not allowed, or a unique value is taken. */
export class IllegalStateError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, 409, 'CONFLICT', details);
  }
}

/** 409: the stream moved on since it was read (optimistic concurrency). */
export class ConcurrencyError extends DomainError {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    message = 'El registro fue modificado por otra operación. Inténtalo de nuevo.',
  ) {
    super(message, 409, 'CONCURRENCY_CONFLICT', { streamId, expectedVersion });
  }
}

/** 413: the body or file is too large. */
export class PayloadTooLargeError extends DomainError {
  constructor(message = 'El archivo o la solicitud es demasiado grande') {
    super(message, 413, 'PAYLOAD_TOO_LARGE');
  }
}

/** 429: rate limit reached. */
export class TooManyRequestsError extends DomainError {
  constructor(message = 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.', readonly retryAfterSeconds?: number) {
    super(message, 429, 'TOO_MANY_REQUESTS', retryAfterSeconds ? { retryAfterSeconds } : undefined);
  }
}
