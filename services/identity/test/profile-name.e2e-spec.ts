import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthMessages } from '@tiendita/contracts';
import { createTestDatabase, signedRequest, testEnv, type TestDatabase } from '@tiendita/service-kit/testing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { createApp } from '../src/app';

let db: TestDatabase;
let app: NestFastifyApplication;
let owner: { userId: string; storeId: string };

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createApp(testEnv(db.url));
  const reg = await app.inject(
    signedRequest({
      method: 'POST',
      url: '/internal/auth/register',
      payload: {
        firstName: 'Rosa',
        lastName: 'Pérez',
        email: 'rosa@example.com',
        password: 'secreto1',
        storeName: 'Abarrotería Doña Rosa',
        subdomain: 'dona-rosa',
        businessType: 'grocery',
        storeDepartment: 'Guatemala',
      },
    }),
  );
  expect(reg.statusCode).toBe(201);
  owner = { userId: reg.json().user.id, storeId: reg.json().store.id };
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const rename = (payload: unknown, ids = owner) => app.inject(signedRequest({ method: 'PUT', url: '/api/auth/user', payload, ...ids }));
const me = () => app.inject(signedRequest({ method: 'GET', url: '/api/auth/user', ...owner }));

describe('PUT /api/auth/user: the owner changes their name on the profile page', () => {
  it('saves the trimmed first and last name, and GET /api/auth/user shows them at once', async () => {
    const res = await rename({ firstName: '  Rosa María ', lastName: 'Pérez de León' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: owner.userId, email: 'rosa@example.com', firstName: 'Rosa María', lastName: 'Pérez de León', profileImageUrl: null, storeId: owner.storeId });
    expect((await me()).json()).toMatchObject({ firstName: 'Rosa María', lastName: 'Pérez de León' });
    const events = await app.get<Pool>(PG_POOL).query(`SELECT data FROM identity.events WHERE type = 'UserNameChanged' AND stream_id = $1`, [`user-${owner.userId}`]);
    expect(events.rows).toEqual([{ data: expect.objectContaining({ userId: owner.userId, firstName: 'Rosa María', lastName: 'Pérez de León' }) }]);
  });

  it('appends nothing when the name is the same', async () => {
    const res = await rename({ firstName: 'Rosa María', lastName: 'Pérez de León' });
    expect(res.statusCode).toBe(200);
    const events = await app.get<Pool>(PG_POOL).query(`SELECT count(*)::int AS n FROM identity.events WHERE type = 'UserNameChanged' AND stream_id = $1`, [`user-${owner.userId}`]);
    expect(events.rows[0].n).toBe(1);
  });

  it('refuses an empty first or last name with 400 and the spec message beside each field', async () => {
    const res = await rename({ firstName: '   ', lastName: '' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ message: AuthMessages.firstNameRequired, details: { fields: { firstName: AuthMessages.firstNameRequired, lastName: AuthMessages.lastNameRequired } } });
    expect((await me()).json()).toMatchObject({ firstName: 'Rosa María', lastName: 'Pérez de León' });
  });

  it('refuses a name longer than 100 characters and a missing field', async () => {
    const long = await rename({ firstName: 'a'.repeat(101), lastName: 'Pérez' });
    expect(long.statusCode).toBe(400);
    expect(long.json().details.fields).toEqual({ firstName: 'El nombre no puede tener más de 100 caracteres' });
    const missing = await rename({ firstName: 'Rosa' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details.fields).toEqual({ lastName: AuthMessages.lastNameRequired });
  });

  it('refuses a call without a signed owner, and another store for this user', async () => {
    const unsigned = await app.inject({ method: 'PUT', url: '/api/auth/user', payload: { firstName: 'X', lastName: 'Y' } });
    expect(unsigned.statusCode).toBe(401);
    const otherStore = await rename({ firstName: 'Intrusa', lastName: 'Y' }, { userId: owner.userId, storeId: '00000000-0000-4000-8000-000000000000' });
    expect(otherStore.statusCode).toBe(404);
    expect((await me()).json()).toMatchObject({ firstName: 'Rosa María' });
  });
});
