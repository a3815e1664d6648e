/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The interop scenarios need Java and real servers: `npm run test:interop` runs them.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/interop/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60000,
  // The CLI tests run the compiled command (dist/cli/hornetq.js): compiled here when sources changed.
  globalSetup: '<rootDir>/test/cli/global-setup.ts',
  // Integration tests bind ports and spawn brokers; two workers suit the 2-core machines.
  maxWorkers: 2,
};
