/**
 * `npm run test:interop` (scripts/interop.mjs builds the Java harness, then runs this): the
 * scenarios against real HornetQ 2.4.7 and Artemis 2.40.0 servers and HornetQ's Java JMS client.
 * The default jest run (jest.config.js) leaves test/interop out: `npm test` needs no Java.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/interop'],
  testMatch: ['**/*.interop.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // JVM starts and a real server's reattach timing on a shared 2-core machine.
  testTimeout: 300000,
  globalSetup: '<rootDir>/test/interop/support/global-setup.ts',
  // Each file runs its own JVMs (a server and a driver): one file at a time is what 2 cores bear.
  maxWorkers: 1,
};
