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
  // Stopgap (session 12): once in three CI runs the group's tests all passed and jest then did not exit (no socket
  // left, so a timer: most likely a relay consumer whose socket closed while its Redis connection was still being
  // made, see the closing note). Ends the run instead of hanging CI; the leak is to be found, then this removed.
  forceExit: true,
};
