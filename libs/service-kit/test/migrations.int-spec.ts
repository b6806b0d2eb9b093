import { createPool, runMigrations } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import type pg from 'pg';

let db: TestDatabase;
let pools: pg.Pool[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  pools = [createPool(db.url), createPool(db.url)];
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db?.drop();
});

const migrations = [
  // pg_sleep widens the window in which a second process would clash without the lock.
  { id: '001-products', sql: 'SELECT pg_sleep(0.2); CREATE TABLE products (id text PRIMARY KEY, name text NOT NULL)' },
  { id: '002-price', sql: 'ALTER TABLE products ADD COLUMN price_cents integer NOT NULL DEFAULT 0' },
];

describe('runMigrations', () => {
  it('applies each migration exactly once when two processes start together', async () => {
    const [a, b] = await Promise.all([runMigrations(pools[0], 'catalogo', migrations), runMigrations(pools[1], 'catalogo', migrations)]);
    expect([...a, ...b].sort()).toEqual(['001-products', '002-price']);
    expect([a.length, b.length].sort()).toEqual([0, 2]);
    const applied = await pools[0].query('SELECT id FROM catalogo.schema_migrations ORDER BY id');
    expect(applied.rows.map((r) => r.id)).toEqual(['001-products', '002-price']);
    const columns = await pools[0].query("SELECT column_name FROM information_schema.columns WHERE table_schema = 'catalogo' AND table_name = 'products' ORDER BY ordinal_position");
    expect(columns.rows.map((r) => r.column_name)).toEqual(['id', 'name', 'price_cents']);
  });

  it('is idempotent and applies only a new migration later', async () => {
    expect(await runMigrations(pools[0], 'catalogo', migrations)).toEqual([]);
    const more = [...migrations, { id: '003-index', sql: 'CREATE INDEX products_name ON products (name)' }];
    expect(await runMigrations(pools[1], 'catalogo', more)).toEqual(['003-index']);
  });

  it('rolls back a failing migration and names it', async () => {
    const broken = [...migrations, { id: '004-broken', sql: 'CREATE TABLE half (id int); SELECT * FROM no_such_table' }];
    await expect(runMigrations(pools[0], 'catalogo', broken)).rejects.toThrow('La migración catalogo.004-broken falló: relation "no_such_table" does not exist');
    const half = await pools[0].query("SELECT to_regclass('catalogo.half') AS t");
    expect(half.rows[0].t).toBeNull();
    const applied = await pools[0].query("SELECT count(*)::int AS n FROM catalogo.schema_migrations WHERE id = '004-broken'");
    expect(applied.rows[0].n).toBe(0);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(runMigrations(pools[0], 'x"; DROP SCHEMA public; --', migrations)).rejects.toThrow('Nombre de esquema inválido');
  });
});

describe('createPool', () => {
  it('commits durably by default, and without waiting for the WAL flush when asked (sessions, rate limits)', async () => {
    const relaxed = createPool(db.url, { synchronousCommit: false, max: 2 });
    try {
      // The test server may run without synchronous commits itself: what matters is who set it.
      const setting = 'SELECT setting, source FROM pg_settings WHERE name = $1';
      expect((await pools[0].query(setting, ['synchronous_commit'])).rows[0].source).not.toBe('client');
      // Every connection of the pool, not just the first.
      const shown = await Promise.all([relaxed.connect(), relaxed.connect()].map(async (connecting) => {
        const client = await connecting;
        try {
          return (await client.query(setting, ['synchronous_commit'])).rows[0];
        } finally {
          client.release();
        }
      }));
      expect(shown).toEqual([{ setting: 'off', source: 'client' }, { setting: 'off', source: 'client' }]);
    } finally {
      await relaxed.end();
    }
  });
});
