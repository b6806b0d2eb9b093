// One PostgreSQL server for the whole test run: DATABASE_URL when set, else an embedded one
// in a temporary folder on a free port (stopped by jest-global-teardown.js). Test files then
// create their own databases on it (createTestDatabase in @tiendita/service-kit/testing).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startEmbeddedPostgres, randomPassword } = require('./lib/embedded-pg.cjs');

module.exports = async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'tiendita-test-pg-'));
  // As root the server runs as the `postgres` user, who must be able to enter this folder.
  fs.chmodSync(base, 0o755);
  const started = Date.now();
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(base, 'data'),
    logFile: path.join(base, 'postgres.log'),
    password: randomPassword(),
    // Test data is thrown away: trade durability for speed.
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  });
  globalThis.__TIENDITA_TEST_PG__ = { pg, base };
  process.env.TEST_DATABASE_ADMIN_URL = pg.url('postgres');
  if (process.env.TIENDITA_TEST_VERBOSE) console.log(`\nPostgreSQL embebido en el puerto ${pg.port} (${Date.now() - started} ms)`);
};
