// @ts-check
/**
 * `npm run test:services`: suites that need the machine's services (PostgreSQL at
 * 127.0.0.1:5432 unless GOLEM_TEST_POSTGRES_URL says otherwise, Redis at 127.0.0.1:6379 unless
 * GOLEM_TEST_REDIS_URL does). Fails — never skips — when a
 * service is unreachable: test/services/require-services.ts checks them first.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/services'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/test/services/require-services.ts',
  // Suites share one server; running them one at a time keeps connection counts low.
  maxWorkers: 1,
};
