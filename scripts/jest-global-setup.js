// Gives every test run one PostgreSQL server: DATABASE_URL when set, else an embedded one (step 2).
module.exports = async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.TEST_DATABASE_ADMIN_URL = process.env.DATABASE_URL;
    return;
  }
  process.env.TEST_DATABASE_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
};
