/**
 * `npm test`: every suite but the slow, CI-only group (the chaos soak and the secret sweep over a soak run),
 * which `npm run test:slow` (`jest.slow.config.js`) runs and `.ci/run` always runs.
 * @type {import('jest').Config}
 */
const SLOW_SUITES = ['/spec/soak/', '/spec/secrets/', '/spec/redis-slow/'];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/spec/bench/', ...SLOW_SUITES],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'CommonJS', moduleResolution: 'node', isolatedModules: true } }],
  },
  testTimeout: 20000,
  // Jest's default is one worker less than the cores: on the 2-core machine that is 1, i.e. in band, and
  // `npm test` took the sum of every suite (~120 s). Two workers use both cores (most suites wait on sockets,
  // child processes or the compiler, not on each other).
  maxWorkers: 2,
};
// For jest.slow.config.js (not enumerable: not a jest option).
Object.defineProperty(module.exports, 'SLOW_SUITES', { value: SLOW_SUITES, enumerable: false });
