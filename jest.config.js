// Jest runs in ESM mode (node --experimental-vm-modules) because NestJS 12 is ESM-only.
// See ../shared/reference/toolchain.md for why each key is here.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
  },
];

export default {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': swc,
    // Node 20 only: CommonJS dependencies require() these ESM-only packages.
    '^.+/node_modules/(content-disposition|cookie)/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|cookie)/)'],
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/architecture/*.spec.ts',
    '<rootDir>/examples/**/*.spec.ts',
  ],
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  // A hang detector, not a speed check (tests never assert on wall-clock speed). It also bounds
  // each beforeAll, and a file booting two or three apps in one was seen to need over 60 s at
  // load 10 on 2 cores.
  testTimeout: 120000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};
