import { InventoryMessages } from '@tiendita/contracts';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';

/** Sort keys and paging of the inventory list and ledger never reach SQL unchecked (issue 26): 400 in Spanish. */
let stack: Stack;
let owner: StackClient;

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog', 'inventory'] });
  owner = stack.client();
  await registerAndLogin(owner);
}, 60_000);

afterAll(() => stack?.stop());

const refused = async (path: string, message: string) => {
  const res = await owner.get(path);
  expect({ path, status: res.status, message: res.body.message }).toEqual({ path, status: 400, message });
};

describe('inventory query bounds', () => {
  it('an unknown sort key or direction answers 400, also names every object has', async () => {
    for (const key of ['hasOwnProperty', 'constructor', '__proto__', 'toString', 'price; DROP TABLE x'])
      await refused(`/api/inventory?sortBy=${encodeURIComponent(key)}`, InventoryMessages.invalidSortBy);
    await refused('/api/inventory?sortBy=name&sortOrder=sideways', InventoryMessages.invalidSortOrder);
    await refused('/api/inventory?sortBy=name&sortBy=stock', InventoryMessages.invalidSortBy);
  });

  it('page and size out of bounds answer 400 on the list and the ledger', async () => {
    for (const base of ['/api/inventory?', '/api/inventory/history?']) {
      for (const page of ['1e20', '0', '-1', '2.5', 'abc', '1000001']) await refused(`${base}page=${page}&limit=10`, InventoryMessages.invalidPage);
      for (const limit of ['0', '201', '1e3', 'x']) await refused(`${base}page=1&limit=${limit}`, InventoryMessages.invalidPageSize(200));
    }
  });

  it('the known keys and bounds still answer', async () => {
    for (const path of ['/api/inventory?sortBy=stock&sortOrder=DESC', '/api/inventory?sortBy=category&page=1000000&limit=200', '/api/inventory/history?page=1&limit=200', '/api/inventory?sortBy=&sortOrder='])
      expect({ path, status: (await owner.get(path)).status }).toEqual({ path, status: 200 });
  });
});
