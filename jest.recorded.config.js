// @ts-check
/**
 * `npm run test:recorded`: the adapters against recorded third-party wire traffic read from
 * ../shared/fixtures/providers beside the checkout. Fails (never skips) when that folder is missing.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/recorded'],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/test/recorded/require-fixtures.ts',
};
