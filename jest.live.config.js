// @ts-check
/** Opt-in live provider tests (test/live/*.live.ts): `npm run test:live -- test/live/<name>`. */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = { ...base, testMatch: ['**/*.live.ts'] };
