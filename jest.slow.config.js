/**
 * The slow, CI-only group: the short chaos soak and the secret sweep (`npm run test:slow`; `.ci/run` runs it
 * after `npm test`).
 * @type {import('jest').Config}
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: base.roots,
  transform: base.transform,
  testTimeout: base.testTimeout,
  testMatch: base.SLOW_SUITES.map((dir) => `<rootDir>${dir}**/*.spec.ts`),
};
