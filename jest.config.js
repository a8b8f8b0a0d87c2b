// @ts-check
/** Jest with @swc/jest: legacy decorators and decorator metadata kept (see docs/adr/0001-test-transformer.md). */
const fs = require('node:fs');
const swc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swc.$schema;

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.[tj]s$': ['@swc/jest', { ...swc, swcrc: false }] },
  transformIgnorePatterns: ['/node_modules/(?!(inversify|@inversifyjs)/)'],
  moduleNameMapper: {
    '^golem$': '<rootDir>/src/index.ts',
    '^golem/testing$': '<rootDir>/src/testing/index.ts',
  },
  clearMocks: true,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
