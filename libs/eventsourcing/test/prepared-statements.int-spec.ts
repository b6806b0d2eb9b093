import { GENERIC_PLANS, StatementNames, withNamedStatements } from '../src';
import { openTestDb, type TestDb } from './support';

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb(2);
});
afterAll(() => db?.close());

describe("a projection's statements are prepared once per connection", () => {
  it('names a parameterised text once it repeats; answers are the same; other calls pass through', async () => {
    const client = await db.pool.connect();
    try {
      const tx = withNamedStatements(client, new StatementNames());
      const prepared = async () => (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);
      const sum = 'SELECT $1::int + $2::int AS n';
      expect((await tx.query(sum, [1, 2])).rows).toEqual([{ n: 3 }]);
      expect(await prepared()).toEqual([]); // seen once: not named yet
      expect((await tx.query(sum, [2, 3])).rows).toEqual([{ n: 5 }]);
      expect((await tx.query(sum, [4, 5])).rows).toEqual([{ n: 9 }]);
      expect(await prepared()).toEqual([sum]);
      // Without values (savepoints, several statements) and with a config object: as given.
      await tx.query('BEGIN; SAVEPOINT s');
      expect((await tx.query({ text: 'SELECT 7 AS n' })).rows).toEqual([{ n: 7 }]);
      await tx.query(`SELECT ${GENERIC_PLANS}`);
      expect((await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0].plan_cache_mode).toBe('force_generic_plan');
      await tx.query('ROLLBACK');
      // Transaction-local: gone with the transaction.
      expect((await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0].plan_cache_mode).toBe('auto');
      // The client's other members still work through the wrapper.
      expect(tx.escapeLiteral("d'Antigua")).toBe("'d''Antigua'");
    } finally {
      client.release();
    }
  });

  it('a failed statement in an aborted transaction leaves the name usable afterwards', async () => {
    const client = await db.pool.connect();
    try {
      const tx = withNamedStatements(client, new StatementNames());
      const text = 'SELECT $1::int * 2 AS n';
      await tx.query('BEGIN');
      await expect(tx.query('SELECT 1/0', [])).rejects.toThrow();
      await expect(tx.query(text, [1])).rejects.toThrow(); // aborted transaction
      await expect(tx.query(text, [1])).rejects.toThrow(); // named now, its Parse refused
      await tx.query('ROLLBACK');
      expect((await tx.query(text, [21])).rows).toEqual([{ n: 42 }]);
    } finally {
      client.release();
    }
  });
});
