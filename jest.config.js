/**
 * One jest run for every workspace: unit (*.spec.ts), integration (*.int-spec.ts) and API (*.e2e-spec.ts) tests
 * of the server side (project "server", Node), and the web client's unit and component tests (project "web",
 * jsdom + Testing Library, web/src/**\/*.test.ts(x)).
 */
const swcOptions = (tsx) => ({
  jsc: {
    parser: { syntax: 'typescript', decorators: !tsx, tsx },
    transform: tsx
      ? { react: { runtime: 'automatic' } }
      : { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
});

// ESM-only packages (NestJS 12, nodemailer, antd's helpers...) become CommonJS for jest on Node 20; see the script.
const esmTransform = '<rootDir>/scripts/lib/jest-esm-transform.js';

const contracts = {
  '^@tiendita/contracts$': '<rootDir>/contracts/src/index.ts',
  '^@tiendita/contracts/constants$': '<rootDir>/contracts/src/constants.ts',
};

const server = {
  displayName: 'server',
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions(false)], '/node_modules/.+\\.m?js$': esmTransform },
  transformIgnorePatterns: [],
  testMatch: ['<rootDir>/{contracts,libs,services,gateway}/**/*.{spec,int-spec,e2e-spec}.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper: {
    ...contracts,
    '^@tiendita/eventsourcing$': '<rootDir>/libs/eventsourcing/src/index.ts',
    '^@tiendita/eventsourcing/testing$': '<rootDir>/libs/eventsourcing/src/testing/index.ts',
    '^@tiendita/ai$': '<rootDir>/libs/ai/src/index.ts',
    '^@tiendita/service-kit$': '<rootDir>/libs/service-kit/src/index.ts',
    '^@tiendita/service-kit/testing$': '<rootDir>/libs/service-kit/src/testing/index.ts',
  },
  // One PostgreSQL for the run; a run of web tests alone does not start it.
  globalSetup: '<rootDir>/scripts/jest-global-setup.js',
  globalTeardown: '<rootDir>/scripts/jest-global-teardown.js',
};

const web = {
  displayName: 'web',
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  // Testing Library and React pick their browser builds.
  testEnvironmentOptions: { customExportConditions: ['browser', 'require', 'default'] },
  transform: { '^.+\\.tsx?$': ['@swc/jest', swcOptions(true)], '/node_modules/.+\\.m?js$': esmTransform },
  transformIgnorePatterns: [],
  testMatch: ['<rootDir>/web/{src,build}/**/*.test.{ts,tsx}'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper: { ...contracts, '\\.css$': '<rootDir>/web/test/style-stub.js' },
  setupFilesAfterEnv: ['<rootDir>/web/test/setup.ts'],
};

module.exports = {
  projects: [server, web],
  testTimeout: 30000,
  maxWorkers: 2,
};
