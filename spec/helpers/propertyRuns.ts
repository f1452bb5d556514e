/**
 * A property's run count: `full` in the slow group (`jest.slow.config.js` sets `FULL_PROPERTY_RUNS`, and runs the
 * suites that use this again: `FULL_RUN_FILES` in jest.config.js), a tenth of it (at least 100) in `npm test`, which
 * stays under its 90 s on two cores.
 */
export const propertyRuns = (full: number): number =>
  process.env['FULL_PROPERTY_RUNS'] !== undefined ? full : Math.min(full, Math.max(100, Math.round(full / 10)));
