import { ALREADY_SUBSCRIBED, ErrorCode } from '@tiendita/contracts';
import { ConcurrencyError, DomainError, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { mapError } from './error-filter';
import { ForbiddenError, HttpError, httpStatusOf, PayloadTooLargeError, ServiceUnavailableError, TooManyRequestsError, UnauthorizedError } from './http-errors';
import { errorFromBody } from './internal-client';

describe('domain errors know no HTTP; the kit maps them', () => {
  it('a domain error carries message, contract code and details, and no status', () => {
    const error = new IllegalStateError('Sin Stock', { productId: 'p1' });
    expect(error).toMatchObject({ message: 'Sin Stock', code: ErrorCode.conflict, details: { productId: 'p1' } });
    expect('status' in error).toBe(false);
  });

  it.each([
    [new ValidationError('El precio es requerido'), 400, ErrorCode.validation],
    [new NotFoundError('Producto no encontrado'), 404, ErrorCode.notFound],
    [new IllegalStateError('Sin Stock'), 409, ErrorCode.conflict],
    [new ConcurrencyError('order-1', 3), 409, ErrorCode.concurrency],
    [new IllegalStateError('Ya estás suscrito', undefined, ALREADY_SUBSCRIBED), 409, ALREADY_SUBSCRIBED],
    [new UnauthorizedError(), 401, ErrorCode.unauthorized],
    [new ForbiddenError(), 403, ErrorCode.forbidden],
    [new PayloadTooLargeError(), 413, ErrorCode.payloadTooLarge],
    [new TooManyRequestsError(undefined, 30), 429, ErrorCode.tooManyRequests],
    [new ServiceUnavailableError(), 503, ErrorCode.unavailable],
    [new DomainError('Regla rota', ErrorCode.notFound), 404, ErrorCode.notFound],
    [new DomainError('Regla rota', 'UNA_REGLA'), 400, 'UNA_REGLA'],
  ])('%s answers %i with code %s', (error, status, code) => {
    expect(httpStatusOf(error)).toBe(status);
    expect(mapError(error)).toMatchObject({ status, body: { message: error.message, code } });
  });

  it('a 429 gives its Retry-After header', () => {
    expect(mapError(new TooManyRequestsError('Espera', 60))).toEqual({
      status: 429,
      body: { message: 'Espera', code: ErrorCode.tooManyRequests, details: { retryAfterSeconds: 60 } },
      headers: { 'retry-after': '60' },
    });
  });
});

describe('errorFromBody: a service answer becomes the same answer again at the caller', () => {
  it.each([
    [400, { message: 'El precio es requerido', code: ErrorCode.validation, details: { fields: { price: 'El precio es requerido' } } }],
    [404, { message: 'Producto no encontrado', code: ErrorCode.notFound }],
    [409, { message: 'Sin Stock', code: ErrorCode.conflict, details: { productId: 'p1' } }],
    [409, { message: 'El registro fue modificado por otra operación. Inténtalo de nuevo.', code: ErrorCode.concurrency }],
    [409, { message: 'Ya estás suscrito', code: ALREADY_SUBSCRIBED }],
    [401, { message: 'No autenticado', code: ErrorCode.unauthorized }],
    [403, { message: 'Acceso denegado', code: ErrorCode.forbidden }],
    [413, { message: 'El archivo es demasiado grande', code: ErrorCode.payloadTooLarge }],
    [503, { message: 'Servicio no disponible, inténtalo de nuevo en un momento', code: ErrorCode.unavailable }],
  ])('%i %j', (status, body) => {
    expect(mapError(errorFromBody(status, body))).toEqual({ status, body });
  });

  it('keeps a 429 as a rate limit with its Retry-After', () => {
    const body = { message: 'Demasiadas subidas', code: ErrorCode.tooManyRequests, details: { retryAfterSeconds: 120 } };
    expect(mapError(errorFromBody(429, body))).toEqual({ status: 429, body, headers: { 'retry-after': '120' } });
  });

  it('never passes on the internal text of a 500, nor an answer without the shared body', () => {
    expect(mapError(errorFromBody(500, { message: 'relation "x" does not exist', code: ErrorCode.internal }))).toEqual({
      status: 500,
      body: { message: 'Error interno del servidor', code: ErrorCode.internal },
    });
    expect(mapError(errorFromBody(502, '<html>bad gateway</html>'))).toMatchObject({ status: 503, body: { code: ErrorCode.unavailable } });
    expect(mapError(errorFromBody(404, 'no encontrado'))).toEqual({ status: 502, body: { message: 'Error interno del servidor', code: ErrorCode.internal } });
    expect(errorFromBody(404, null)).toBeInstanceOf(HttpError);
  });
});
