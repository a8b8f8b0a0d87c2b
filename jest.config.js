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
  // Recorded third-party traffic (../shared beside the checkout) runs only in `npm run test:recorded`;
  // suites that need Redis or PostgreSQL run only in `npm run test:services`.
  testPathIgnorePatterns: [
    '/node_modules/',
    '<rootDir>/test/recorded/',
    '<rootDir>/test/services/',
  ],
  transform: { '^.+\\.[tj]s$': ['@swc/jest', { ...swc, swcrc: false }] },
  transformIgnorePatterns: [
    '/node_modules/(?!(inversify|@inversifyjs|arktype|@ark|arkregex|@nestjs|jose)/)',
  ],
  moduleNameMapper: {
    '^golem$': '<rootDir>/src/core/index.ts',
    '^golem/testing$': '<rootDir>/src/testing/index.ts',
    '^golem/decorators$': '<rootDir>/decorators/index.ts',
    '^golem/container$': '<rootDir>/container/index.ts',
    '^golem/nestjs$': '<rootDir>/nestjs/index.ts',
    '^golem/nestjs/queue$': '<rootDir>/nestjs/queue.ts',
    '^golem/providers/(openai|openai-responses|azure|anthropic|gemini|bedrock|resolve)$':
      '<rootDir>/src/providers/$1/index.ts',
    '^golem/tools/(webfetch|fileread|shell|skills)$': '<rootDir>/src/tools/$1/index.ts',
    '^golem/mcp$': '<rootDir>/src/mcp/index.ts',
    '^golem/stores/(memory|sqlite|postgres|redis)$': '<rootDir>/src/stores/$1/index.ts',
    '^golem/otel$': '<rootDir>/src/otel/index.ts',
    '^golem/prices$': '<rootDir>/src/prices/index.ts',
    '^golem/queue$': '<rootDir>/src/queue/index.ts',
    '^golem/ui$': '<rootDir>/src/ui/index.ts',
    '^golem/memory$': '<rootDir>/src/memory/index.ts',
    '^golem/middleware$': '<rootDir>/src/middleware/index.ts',
    '^golem/workflows$': '<rootDir>/src/workflows/index.ts',
    '^golem/evals$': '<rootDir>/src/evals/index.ts',
    '^golem/a2a$': '<rootDir>/src/a2a/index.ts',
    '^golem/studio$': '<rootDir>/src/studio/index.ts',
  },
  clearMocks: true,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
