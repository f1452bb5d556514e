/**
 * The slow group (`npm run test:slow`; `.ci/run` runs it after `npm test`): the suites `jest.config.js` lists in
 * `SLOW_SUITES` and `SLOW_FILES`, one at a time (jest's default on two cores), as the timed and process-driven ones
 * want.
 * @type {import('jest').Config}
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: base.roots,
  transform: base.transform,
  testTimeout: base.testTimeout,
  testMatch: [...base.SLOW_SUITES.map((dir) => `<rootDir>${dir}**/*.spec.ts`), ...base.SLOW_FILES.map((file) => `<rootDir>${file}`)],
};
