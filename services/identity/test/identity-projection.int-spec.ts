import { redactIdentityEventData, type IdentityEvent } from '@tiendita/contracts';
import { decodeMessage, type RecordedEventWithTx, toEnvelope } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import pg from 'pg';
import { identityProjection } from '../src/read-model/identity.projection';

let db: TestDatabase;
let pool: pg.Pool;
const t = { users: 'identity.users', stores: 'identity.stores', store_settings: 'identity.store_settings' };

const userId = '2b7d5b5e-0000-4000-8000-000000000001';
const storeId = '2b7d5b5e-0000-4000-8000-000000000002';
const settingsId = '2b7d5b5e-0000-4000-8000-000000000003';

let position = 0;
function recorded(event: IdentityEvent): RecordedEventWithTx {
  position += 1;
  return {
    globalPosition: position,
    transactionId: String(position),
    streamId: 'x',
    streamPosition: position,
    type: event.type,
    data: event.data,
    recordedAt: new Date(),
    metadata: { eventId: `00000000-0000-4000-8000-${String(position).padStart(12, "0")}`, schemaVersion: 1, storeId, occurredAt: new Date().toISOString(), correlationId: null, causationId: null, actor: userId },
  };
}

async function apply(...events: IdentityEvent[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await identityProjection.apply(client, events.map(recorded), t);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query('CREATE SCHEMA identity');
  const client = await pool.connect();
  await identityProjection.setup(client, t);
  client.release();
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const at = '2026-03-01T12:00:00.000Z';

it('builds users, stores and store_settings rows from registration events, without any secret', async () => {
  await apply(
    {
      type: 'StoreCreated',
      data: {
        storeId, ownerId: userId, name: 'Tienda Uno', subdomain: 'tienda-uno', businessType: 'pets', description: null, phone: '2222',
        email: null, address: null, department: 'Zacapa', website: null, whatsappNumber: null, businessHours: 'L-V', isActive: true,
        allowOnlineOrders: true, requireCustomerInfo: false, logoUrl: null, primaryColor: '#0ea5e9', secondaryColor: '#0284c7',
        accentColor: '#dc2626', aiDescriptionLength: 'normal', createdAt: at,
      },
    },
    { type: 'StoreSettingsCreated', data: { settingsId, storeId, taxRate: 0.12, currency: 'GTQ', kashEnabled: false, zigiEnabled: false, printReceipts: true, receiptHeader: null, receiptFooter: null, createdAt: at } },
    { type: 'UserRegistered', data: { userId, email: 'uno@example.com', passwordHash: '$argon2id$secreto', firstName: 'Uno', lastName: 'Dos', storeId, registeredAt: at } },
  );
  const user = await pool.query('SELECT * FROM identity.users');
  expect(user.rows).toEqual([
    expect.objectContaining({ id: userId, email: 'uno@example.com', first_name: 'Uno', last_name: 'Dos', store_id: storeId, is_email_verified: false, last_login_at: null }),
  ]);
  expect(JSON.stringify(user.rows)).not.toContain('argon2');
  const store = await pool.query('SELECT subdomain, business_type, department, business_hours, is_active, primary_color FROM identity.stores');
  expect(store.rows).toEqual([{ subdomain: 'tienda-uno', business_type: 'pets', department: 'Zacapa', business_hours: 'L-V', is_active: true, primary_color: '#0ea5e9' }]);
  const settings = await pool.query('SELECT tax_rate, currency, print_receipts FROM identity.store_settings');
  expect(settings.rows).toEqual([{ tax_rate: '0.1200', currency: 'GTQ', print_receipts: true }]);
});

it('keeps the latest sign-in as lastLoginAt, whatever order the log arrives in', async () => {
  await apply({ type: 'UserLoggedIn', data: { userId, loggedInAt: '2026-03-02T10:00:00.000Z' } }, { type: 'UserLoggedIn', data: { userId, loggedInAt: '2026-03-02T09:00:00.000Z' } });
  const r = await pool.query('SELECT last_login_at FROM identity.users WHERE id = $1', [userId]);
  expect(r.rows[0].last_login_at.toISOString()).toBe('2026-03-02T10:00:00.000Z');
});

it('records a password change date, and ignores reset requests (nothing to show)', async () => {
  await apply(
    { type: 'PasswordResetRequested', data: { userId, tokenHash: 'a'.repeat(64), requestedAt: at, expiresAt: at } },
    { type: 'PasswordChanged', data: { userId, passwordHash: '$argon2id$nuevo', changedAt: '2026-03-03T00:00:00.000Z', reason: 'reset' } },
  );
  const r = await pool.query('SELECT password_changed_at, updated_at FROM identity.users WHERE id = $1', [userId]);
  expect(r.rows[0].password_changed_at.toISOString()).toBe('2026-03-03T00:00:00.000Z');
  expect(JSON.stringify((await pool.query('SELECT * FROM identity.users')).rows)).not.toMatch(/argon2|aaaa/);
});

it('is idempotent: the same registration applied twice leaves one row', async () => {
  await apply({ type: 'UserRegistered', data: { userId, email: 'uno@example.com', passwordHash: 'x', firstName: 'Otro', lastName: 'Nombre', storeId, registeredAt: at } });
  const r = await pool.query('SELECT first_name FROM identity.users');
  expect(r.rows).toEqual([{ first_name: 'Uno' }]);
});

it('under Kafka publishes no credential hash, and the published events build the same rows', async () => {
  const otherUser = '2b7d5b5e-0000-4000-8000-000000000011';
  const tokenHash = 'ab'.repeat(32);
  const events = [
    recorded({ type: 'UserRegistered', data: { userId: otherUser, email: 'kafka@example.com', passwordHash: '$argon2id$v=19$m=7168,t=5,p=1$c2FsdA$aGFzaA', firstName: 'Ka', lastName: 'Fka', storeId, registeredAt: at } }),
    recorded({ type: 'PasswordResetRequested', data: { userId: otherUser, tokenHash, requestedAt: at, expiresAt: '2026-03-01T13:00:00.000Z' } }),
    recorded({ type: 'PasswordChanged', data: { userId: otherUser, passwordHash: '$argon2id$v=19$m=7168,t=5,p=1$b3Rybw$bnVldm8', changedAt: '2026-03-01T12:30:00.000Z', reason: 'reset' } }),
    recorded({ type: 'UserLoggedIn', data: { userId: otherUser, loggedInAt: '2026-03-01T12:31:00.000Z' } }),
  ];
  // What the relay writes to the topic, and what a consumer reads back from it.
  const published = events.map((e) => JSON.stringify(toEnvelope(e, redactIdentityEventData)));
  for (const message of published) {
    expect(message).not.toContain('argon2');
    expect(message).not.toContain(tokenHash);
    expect(message).not.toMatch(/passwordHash|tokenHash/);
  }
  expect(JSON.parse(published[0]).data).toEqual({ userId: otherUser, email: 'kafka@example.com', firstName: 'Ka', lastName: 'Fka', storeId, registeredAt: at });
  // The stored events are untouched: identity still checks passwords against them.
  expect((events[0].data as { passwordHash: string }).passwordHash).toMatch(/^\$argon2id\$/);

  const consumed = published.map((m) => {
    const decoded = decodeMessage(m, undefined, undefined);
    if (!decoded.ok) throw new Error(decoded.reason);
    return decoded.event;
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await identityProjection.apply(client, consumed, t);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  const row = await pool.query('SELECT email, first_name, store_id, password_changed_at, last_login_at FROM identity.users WHERE id = $1', [otherUser]);
  expect(row.rows).toEqual([
    { email: 'kafka@example.com', first_name: 'Ka', store_id: storeId, password_changed_at: new Date('2026-03-01T12:30:00.000Z'), last_login_at: new Date('2026-03-01T12:31:00.000Z') },
  ]);
});

it('redacts only the credential fields, and leaves events without them as they are', () => {
  const login = { userId, loggedInAt: at };
  expect(redactIdentityEventData('UserLoggedIn', login)).toBe(login);
  expect(redactIdentityEventData('PasswordChanged', { userId, passwordHash: 'x', changedAt: at, reason: 'reset' })).toEqual({ userId, changedAt: at, reason: 'reset' });
  expect(redactIdentityEventData('Anything', null)).toBeNull();
});
