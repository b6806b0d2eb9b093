import { ApiError, apiFetch, apiJson, fieldErrorsOf, readApiError, serverMessageOr } from './api';
import { useStandIn } from '../../test/stand-in-server';

const api = useStandIn();

describe('apiJson / apiFetch', () => {
  it('envía el cuerpo como JSON con su tipo y devuelve la respuesta leída', async () => {
    api.on('POST', '/api/products', (req) => ({ status: 201, body: { id: 'p1', echo: req.body } }));
    const answer = await apiJson<{ id: string; echo: unknown }>('POST', '/api/products', { json: { name: 'Café' } });
    expect(answer).toEqual({ id: 'p1', echo: { name: 'Café' } });
    const sent = api.received.at(-1)!;
    expect(sent.headers['content-type']).toBe('application/json');
  });

  it('un 400 del servidor lanza ApiError con el mensaje en español y los campos', async () => {
    const body = { message: 'El descuento debe estar entre 0 y 100.', code: 'VALIDATION_ERROR', details: { fields: { discountPercentage: ['El descuento debe estar entre 0 y 100.'] } } };
    api.on('PUT', '/api/products/p1', { status: 400, body });
    const error = await apiFetch('PUT', '/api/products/p1', { json: { discountPercentage: 150 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe('VALIDATION_ERROR');
    // spec 001 §8: the status, a colon and a space, then the body text
    expect(apiError.message).toBe(`400: ${JSON.stringify(body)}`);
    expect(serverMessageOr(error, 'otro')).toBe('El descuento debe estar entre 0 y 100.');
    expect(fieldErrorsOf(error)).toEqual({ discountPercentage: 'El descuento debe estar entre 0 y 100.' });
  });

  it('un cuerpo vacío usa el texto del estado; un cuerpo que no es JSON no da mensaje del servidor', async () => {
    api.on('GET', '/api/empty', { status: 503 });
    const empty = (await apiFetch('GET', '/api/empty').catch((e: unknown) => e)) as ApiError;
    expect(empty.message).toBe('503: Service Unavailable');
    expect(empty.serverMessage).toBeNull();

    api.on('GET', '/api/text', { status: 500, body: 'fallo' });
    const text = (await apiFetch('GET', '/api/text').catch((e: unknown) => e)) as ApiError;
    expect(text.message).toBe('500: fallo');
    expect(serverMessageOr(text, 'Intenta de nuevo')).toBe('Intenta de nuevo');
  });
});

describe('readApiError', () => {
  it('lee las partes de un ApiError y devuelve nulos para cualquier otro error', () => {
    const error = new ApiError(409, JSON.stringify({ message: 'Sin Stock', code: 'CONFLICT' }));
    expect(readApiError(error)).toEqual({ status: 409, code: 'CONFLICT', message: 'Sin Stock', fields: {} });
    expect(readApiError(new TypeError('Failed to fetch'))).toEqual({ status: null, code: null, message: null, fields: {} });
  });
});
