/** One jest run for every workspace: unit (*.spec.ts), integration (*.int-spec.ts) and API (*.e2e-spec.ts) tests. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  // ESM-only packages (NestJS 12, nodemailer...) become CommonJS for jest on Node 20; see the script.
  transform: { '^.+\\.ts$': swc, '/node_modules/.+\\.m?js$': '<rootDir>/scripts/lib/jest-esm-transform.js' },
  transformIgnorePatterns: [],
  testMatch: ['<rootDir>/{contracts,libs,services,gateway}/**/*.{spec,int-spec,e2e-spec}.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper: {
    '^@tiendita/contracts$': '<rootDir>/contracts/src/index.ts',
    '^@tiendita/contracts/constants$': '<rootDir>/contracts/src/constants.ts',
    '^@tiendita/eventsourcing$': '<rootDir>/libs/eventsourcing/src/index.ts',
    '^@tiendita/eventsourcing/testing$': '<rootDir>/libs/eventsourcing/src/testing/index.ts',
    '^@tiendita/ai$': '<rootDir>/libs/ai/src/index.ts',
    '^@tiendita/service-kit$': '<rootDir>/libs/service-kit/src/index.ts',
    '^@tiendita/service-kit/testing$': '<rootDir>/libs/service-kit/src/testing/index.ts',
  },
  globalSetup: '<rootDir>/scripts/jest-global-setup.js',
  globalTeardown: '<rootDir>/scripts/jest-global-teardown.js',
  testTimeout: 30000,
  maxWorkers: 2,
};
