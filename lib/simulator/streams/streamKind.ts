/**
 * Which stream a fault or an observation is about.
 *
 * @example
 * ```ts
 * import { startSimulator, type StreamKind } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const stream: StreamKind = 'private';
 * const privateSubs = sim.observed().subscriptions.filter((s) => s.stream === stream);
 * ```
 */
export type StreamKind = 'public' | 'private';

/**
 * Stream selector of the control surface: one stream, or `'all'` for both.
 *
 * @example
 * ```ts
 * import { startSimulator, type StreamSelector } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const stream: StreamSelector = 'all';
 * sim.drop({ stream, code: 1012, reason: 'service restart' });
 * ```
 */
export type StreamSelector = StreamKind | 'all';
