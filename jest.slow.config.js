/**
 * The slow group (`npm run test:slow`; `.ci/run` runs it after `npm test`): the suites `jest.config.js` lists in
 * `SLOW_SUITES` and `SLOW_FILES`, and its `FULL_RUN_FILES` again with their full property counts, one at a time
 * (jest's default on two cores), as the timed and process-driven ones want.
 * @type {import('jest').Config}
 */
const base = require('./jest.config.js');

// The full property counts of the FULL_RUN_FILES (npm test runs them with fewer).
process.env.CODEC_CHECK_RUNS ??= '300';
process.env.FULL_PROPERTY_RUNS ??= '1';

module.exports = {
  testEnvironment: base.testEnvironment,
  roots: base.roots,
  transform: base.transform,
  testTimeout: base.testTimeout,
  testMatch: [...base.SLOW_SUITES.map((dir) => `<rootDir>${dir}**/*.spec.ts`), ...[...base.SLOW_FILES, ...base.FULL_RUN_FILES].map((file) => `<rootDir>${file}`)],
};
