/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60000,
  // The CLI tests run the compiled command (dist/cli/hornetq.js): compiled here when sources changed.
  globalSetup: '<rootDir>/test/cli/global-setup.ts',
  // Integration tests bind ports and spawn brokers; two workers suit the 2-core machines.
  maxWorkers: 2,
};
