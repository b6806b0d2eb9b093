import { ErrorCode } from '@tiendita/contracts';

/**
 * Typed domain errors: a Spanish message, the contract's error code and optional details. The
 * domain knows no transport: service-kit's error filter maps each kind to its HTTP status.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input breaks a rule; details may hold per-field messages (`{ fields: { sku: '…' } }`). */
export class ValidationError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>, code: string = ErrorCode.validation) {
    super(message, code, details);
  }
}

/** Unknown, or belonging to another tenant (never tell which). */
export class NotFoundError extends DomainError {
  constructor(message = 'No encontrado', code: string = ErrorCode.notFound) {
    super(message, code);
  }
}

/** The aggregate is in a state where the command is not allowed, or a unique value is taken. */
export class IllegalStateError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>, code: string = ErrorCode.conflict) {
    super(message, code, details);
  }
}

/** The stream moved on since it was read (optimistic concurrency). */
export class ConcurrencyError extends DomainError {
  constructor(
    readonly streamId: string,
    readonly expectedVersion: number,
    message = 'El registro fue modificado por otra operación. Inténtalo de nuevo.',
  ) {
    super(message, ErrorCode.concurrency, { streamId, expectedVersion });
  }
}
