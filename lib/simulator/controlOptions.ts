/**
 * Options of `rejectNextRequests`.
 *
 * @example
 * ```ts
 * import { startSimulator, type RejectOptions } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const unavailable: RejectOptions = { status: 503, code: -1001, msg: 'Service unavailable.' };
 * sim.rejectNextRequests(2, unavailable);
 * ```
 */
export interface RejectOptions {
  /** HTTP status, default 429. */
  readonly status?: number | undefined;
  /** Body code, default -1003. */
  readonly code?: number | undefined;
  /** Body message, default 'Request rejected by fault injection.' */
  readonly msg?: string | undefined;
}

/**
 * Options of `privateChaos`.
 *
 * @example
 * ```ts
 * import { startSimulator, type PrivateChaosOptions } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const chaos: PrivateChaosOptions = { duplicateProbability: 0.2, reorderWindowMs: 100 };
 * sim.privateChaos(chaos);
 * // ... later, back to in-order single delivery
 * sim.privateChaos({});
 * ```
 */
export interface PrivateChaosOptions {
  /** Probability that an event is pushed twice, default 0. */
  readonly duplicateProbability?: number | undefined;
  /** Each event is delayed by a seeded random time in [0, reorderWindowMs), default 0 (no reordering). */
  readonly reorderWindowMs?: number | undefined;
}

/**
 * Options of `injectTrade`.
 *
 * @example
 * ```ts
 * import { startSimulator, type InjectTradeOptions } from 'ex-streams/simulator';
 * const sim = await startSimulator({ symbols: ['BTCUSDT'] });
 * const trade: InjectTradeOptions = { symbol: 'BTCUSDT', price: '29950.5', quantity: '0.25' };
 * sim.injectTrade(trade); // resting BUY orders at or above 29950.5 fill
 * ```
 */
export interface InjectTradeOptions {
  readonly symbol: string;
  /** Trade price, decimal text. */
  readonly price: string;
  /** Trade quantity, decimal text, default '1'. */
  readonly quantity?: string | undefined;
}
