// Stops the embedded PostgreSQL of jest-global-setup.js (if it started one) and removes its folder.
const fs = require('node:fs');

module.exports = async function globalTeardown() {
  const started = globalThis.__TIENDITA_TEST_PG__;
  if (!started) return;
  globalThis.__TIENDITA_TEST_PG__ = undefined;
  await started.pg.stop();
  fs.rmSync(started.base, { recursive: true, force: true });
};
