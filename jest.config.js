/**
 * `npm test`: every suite but the slow group, which `npm run test:slow` (`jest.slow.config.js`) runs and `.ci/run`
 * always runs: the chaos soak and the secret sweep over a soak run, the Redis relay's processes and cluster, and the
 * suites that drive other programs or take a timed run of their own (Chromium, the CLIs and the demo as child
 * processes, the compiler over the docs' examples and the strict flags, 500 topics subscribed twice, stalls).
 * `npm test` stays under 90 s on the 2-core machine (the brief); what moves here still runs in CI.
 * @type {import('jest').Config}
 */
const SLOW_SUITES = ['/spec/soak/', '/spec/secrets/', '/spec/redis-slow/', '/spec/browser/', '/spec/examples/'];
/** Single suites of the slow group (their folders' other suites stay in `npm test`). */
const SLOW_FILES = [
  '/spec/simulator/cli.spec.ts',
  '/spec/node/recordCli.integration.spec.ts',
  '/spec/demo/demo.spec.ts',
  '/spec/types/strictFlags.spec.ts',
  '/spec/docs/readmeSnippets.spec.ts',
  '/spec/docs/examples.spec.ts',
  '/spec/docs/exports.spec.ts',
  '/spec/market/subscriptions.integration.spec.ts',
  '/spec/socket/connection.stall.integration.spec.ts',
  '/spec/redis/consumerTeardown.spec.ts',
  '/spec/redis/relay.integration.spec.ts',
  '/spec/redis/relayV2.integration.spec.ts',
  '/spec/market/marketStreams.faults.integration.spec.ts',
  '/spec/orders/orderGaps.property.spec.ts',
  '/spec/testing/replayMarket.busyDay.spec.ts',
  // Longer integration suites on real files, processes and sockets (5-10 s each), kept out of `npm test`'s 90 s.
  '/spec/replay/pastHistory.integration.spec.ts',
  '/spec/node/recordingDamage.integration.spec.ts',
  '/spec/redis/relayTampered.integration.spec.ts',
  '/spec/replay/example.spec.ts',
  '/spec/redis/gatewayWriter.integration.spec.ts',
  '/spec/redis/relayPush.integration.spec.ts',
  // Engine internals: these pin V8 behaviour (`--allow-natives-syntax`: pretenuring, fast string methods) that a
  // Node upgrade may change without any change of ours; they guard measured fixes, not the library's contract.
  '/spec/redis/fastStringMethods.spec.ts',
  '/spec/redis/pushPretenuring.spec.ts',
];
/**
 * Suites of `npm test` that the slow group runs again with their full property counts (jest.slow.config.js sets
 * them): the proof that the compiled checks equal the io-ts codecs (`CODEC_CHECK_RUNS`: 30 here, 300 there), and the
 * properties of thousands of runs (`propertyRuns()` of spec/helpers/propertyRuns.ts: a tenth here).
 */
const FULL_RUN_FILES = [
  '/spec/codecs/fastCheck.spec.ts',
  '/spec/decimal/fixed.spec.ts',
  '/spec/frame/json.spec.ts',
  '/spec/orders/symbolRules.spec.ts',
  '/spec/operators/incrementalBook.spec.ts',
  '/spec/operators/orderBook.spec.ts',
  '/spec/market/internal/v2FrameReader.spec.ts',
  '/spec/internal/plainNumberText.spec.ts',
  '/spec/decimal/decimal.spec.ts',
];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/spec/bench/', ...SLOW_SUITES, ...SLOW_FILES.map((f) => f.replace(/\./g, '\\.'))],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'CommonJS', moduleResolution: 'node', isolatedModules: true } }],
  },
  testTimeout: 20000,
  // Jest's default is one worker less than the cores: on the 2-core machine that is 1, i.e. in band, and
  // `npm test` took the sum of every suite. Most suites wait on sockets, child processes and timers rather than the
  // CPU, so three workers fill those waits (measured here: 61 s with 3 workers against 81 s with 2, all green both ways).
  maxWorkers: 3,
  // `npm test` runs jest under `node --max-old-space-size=384` (package.json; the workers inherit it). Left to grow,
  // each worker's heap reached ~750 MB of garbage (its live set after a collection: 136 MB at most), and its process
  // took ~575 ms to end after the last suite, past jest's 500 ms: "A worker process has failed to exit gracefully"
  // (the workers had no handle left: they exited 1 ms after jest asked; the OS took the rest, freeing the heap).
  // Capped, the heaps stay under ~300 MB, the workers end in ~230 ms, and the run is a few seconds shorter.
};
// For jest.slow.config.js (not enumerable: not a jest option).
Object.defineProperty(module.exports, 'SLOW_SUITES', { value: SLOW_SUITES, enumerable: false });
Object.defineProperty(module.exports, 'SLOW_FILES', { value: SLOW_FILES, enumerable: false });
Object.defineProperty(module.exports, 'FULL_RUN_FILES', { value: FULL_RUN_FILES, enumerable: false });
