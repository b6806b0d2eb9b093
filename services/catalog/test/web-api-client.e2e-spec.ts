import { CatalogMessages, ProductView } from '@tiendita/contracts';
import { ApiError, apiFetch, apiJson, readApiError, serverMessageOr } from '../../../web/src/lib/api';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';

/**
 * The web client's one fetch wrapper (web/src/lib/api.ts) against the real gateway and catalog:
 * every non-ok answer is an ApiError carrying the status, the code, the server's Spanish message and
 * its field errors, while its message keeps the spec's 'status: body' display format (spec 001 §8).
 */
let stack: Stack;
let owner: StackClient;
let headers: Record<string, string>;

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog'] });
  owner = stack.client();
  await registerAndLogin(owner);
  headers = { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), origin: stack.url };
}, 60_000);

afterAll(() => stack?.stop());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('la llamada no falló');
}

it('a validation error is an ApiError with status, code, the Spanish message and field errors; message is "status: body"', async () => {
  const error = await failure(apiJson('POST', `${stack.url}/api/products`, { json: { name: 'Café', price: '' }, headers }));
  expect(error.status).toBe(400);
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(error.serverMessage).toBe(CatalogMessages.priceRequired);
  expect(error.fieldErrors.price).toBe(CatalogMessages.priceRequired);
  expect(error.message).toBe(`400: ${error.body}`);
  expect(JSON.parse(error.body).message).toBe(CatalogMessages.priceRequired);
  expect(readApiError(error)).toEqual({ status: 400, code: 'VALIDATION_ERROR', message: CatalogMessages.priceRequired, fields: error.fieldErrors });
  expect(serverMessageOr(error, 'otro')).toBe(CatalogMessages.priceRequired);
});

it('a 401 and a 404 are ApiErrors too; an ok answer comes back as JSON', async () => {
  const unauthorized = await failure(apiFetch('GET', `${stack.url}/api/products`));
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.serverMessage).toEqual(expect.any(String));
  const missing = await failure(apiFetch('GET', `${stack.url}/api/products/00000000-0000-4000-8000-000000000000`, { headers }));
  expect([missing.status, missing.serverMessage]).toEqual([404, CatalogMessages.productNotFound]);
  const created = ProductView.parse(await apiJson('POST', `${stack.url}/api/products`, { json: { name: 'Café', price: 20 }, headers }));
  expect(created.price).toBe(20);
});

it('a body that is not the error JSON keeps its text: no server message, the fallback is shown', async () => {
  const error = new ApiError(502, 'Bad Gateway');
  expect(error.message).toBe('502: Bad Gateway');
  expect(error.serverMessage).toBeNull();
  expect(serverMessageOr(error, 'No se pudo actualizar el producto.')).toBe('No se pudo actualizar el producto.');
  expect(serverMessageOr(new Error('red caída'), 'No se pudo crear el producto.')).toBe('No se pudo crear el producto.');
});
