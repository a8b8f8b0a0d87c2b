// @ts-check
/**
 * `npm run test:browser`: the chat UI example (examples/chat-ui) in a real headless Chromium
 * (Debian's /usr/bin/chromium, or CHROMIUM_PATH) driven by playwright-core. Needs the root build
 * (`npm run build`) and the example's own install (`npm ci --prefix examples/chat-ui`); fails with
 * a message naming what is missing. Its files end in `.browser.ts`, so `npm test` never runs them.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
  testTimeout: 60_000,
};
