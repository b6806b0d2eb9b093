import { Body, Controller, ForbiddenException, Get, HttpException, Module, Param, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@tiendita/contracts';
import { ConcurrencyError, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { createServiceApp, HttpError, parse, parseConfig, TooManyRequestsError } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import { z } from 'zod';

const ProductBody = z.object({
  name: z.string({ error: 'El nombre es requerido' }).min(1, 'El nombre es requerido'),
  price: z.number({ error: 'El precio debe ser un número' }).positive('El precio debe ser mayor a 0'),
});

@Controller('t')
class ThrowingController {
  @Post('products')
  create(@Body() body: unknown) {
    return parse(ProductBody, body);
  }

  @Get('domain/:kind')
  domain(@Param('kind') kind: string) {
    switch (kind) {
      case 'not-found':
        throw new NotFoundError('Producto no encontrado');
      case 'illegal':
        throw new IllegalStateError('Sin Stock', { productId: 'p1' });
      case 'concurrency':
        throw new ConcurrencyError('order-1', 3);
      case 'validation':
        throw new ValidationError('El código ya existe', { fields: { sku: 'El código ya existe' } });
      case 'rate':
        throw new TooManyRequestsError(undefined, 60);
      default:
        return { ok: true };
    }
  }

  @Get('forbidden')
  forbidden() {
    throw new ForbiddenException();
  }

  @Get('boom')
  boom() {
    throw new Error('detalle interno que el cliente no debe ver');
  }

  @Get('internal/:kind')
  internal(@Param('kind') kind: string) {
    switch (kind) {
      case 'domain-500':
        throw new HttpError('relation "catalog.products" does not exist', 500, 'INTERNAL_ERROR');
      case 'domain-502':
        throw new HttpError('upstream 10.0.3.7:3002 answered garbage', 502, 'INTERNAL_ERROR');
      case 'http-500':
        throw new HttpException({ message: 'ECONNREFUSED 127.0.0.1:5432', code: 'DB' }, 500);
      case 'domain-503':
        throw new HttpError('El inventario no está disponible; inténtalo de nuevo.', 503, 'SERVICE_UNAVAILABLE');
      default:
        return { ok: true };
    }
  }
}

@Module({ controllers: [ThrowingController] })
class ThrowingModule {}

let db: TestDatabase;
let app: NestFastifyApplication;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createServiceApp({ name: 'prueba', module: ThrowingModule, config: parseConfig(undefined, testEnv(db.url)), internalAuth: false, bodyLimit: 1024 });
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

describe('the error filter', () => {
  it('answers a zod error as 400 with the first message and per-field details', async () => {
    const res = await app.inject({ method: 'POST', url: '/t/products', payload: { name: '', price: -1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'El nombre es requerido',
      code: ErrorCode.validation,
      details: { fields: { name: 'El nombre es requerido', price: 'El precio debe ser mayor a 0' } },
    });
  });

  it('passes a valid body through', async () => {
    const res = await app.inject({ method: 'POST', url: '/t/products', payload: { name: 'Café', price: 25 } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'Café', price: 25 });
  });

  it.each([
    ['not-found', 404, { message: 'Producto no encontrado', code: ErrorCode.notFound }],
    ['illegal', 409, { message: 'Sin Stock', code: ErrorCode.conflict, details: { productId: 'p1' } }],
    ['concurrency', 409, { message: 'El registro fue modificado por otra operación. Inténtalo de nuevo.', code: ErrorCode.concurrency, details: { streamId: 'order-1', expectedVersion: 3 } }],
    ['validation', 400, { message: 'El código ya existe', code: ErrorCode.validation, details: { fields: { sku: 'El código ya existe' } } }],
  ])('maps the domain error %s to its status', async (kind, status, body) => {
    const res = await app.inject({ method: 'GET', url: `/t/domain/${kind}` });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(body);
  });

  it('sends Retry-After with a 429', async () => {
    const res = await app.inject({ method: 'GET', url: '/t/domain/rate' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.json()).toEqual({ message: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.', code: ErrorCode.tooManyRequests, details: { retryAfterSeconds: 60 } });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await app.inject({ method: 'POST', url: '/t/products', payload: { name: 'x'.repeat(5000), price: 1 } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'La solicitud es demasiado grande', code: ErrorCode.payloadTooLarge });
  });

  it('answers malformed JSON with 400 JSON inválido', async () => {
    const res = await app.inject({ method: 'POST', url: '/t/products', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'JSON inválido', code: ErrorCode.validation });
  });

  it('answers an unknown route with 404 Ruta no encontrada', async () => {
    const res = await app.inject({ method: 'GET', url: '/no-existe' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Ruta no encontrada', code: ErrorCode.notFound });
  });

  it('gives a Nest HttpException a Spanish message', async () => {
    const res = await app.inject({ method: 'GET', url: '/t/forbidden' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Acceso denegado', code: ErrorCode.forbidden });
  });

  it.each([
    ['domain-500', 500],
    ['domain-502', 502],
    ['http-500', 500],
  ])('never sends the text of a 5xx our own code threw (%s): the generic Spanish message', async (kind, status) => {
    const res = await app.inject({ method: 'GET', url: `/t/internal/${kind}` });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ message: 'Error interno del servidor', code: ErrorCode.internal });
    expect(res.body).not.toMatch(/relation|10\.0\.3\.7|ECONNREFUSED/);
  });

  it('keeps the Spanish message a 503 was given on purpose', async () => {
    const res = await app.inject({ method: 'GET', url: '/t/internal/domain-503' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'El inventario no está disponible; inténtalo de nuevo.', code: ErrorCode.unavailable });
  });

  it('hides an unexpected error behind 500 without a stack', async () => {
    const res = await app.inject({ method: 'GET', url: '/t/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Error interno del servidor', code: ErrorCode.internal });
    expect(res.body).not.toContain('detalle interno');
    expect(res.body).not.toContain('at ');
  });
});
