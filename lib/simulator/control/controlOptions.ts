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
  /** Body code, default -1003; text as HashKey sends some (`'0003'`: "Rate limit exceeded", with status 400). */
  readonly code?: number | string | undefined;
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

/**
 * Options of `loseNextAnswers`: how an answer is lost after the request was processed (an order placed or
 * cancelled, the client never told), and which requests count (all API requests when neither `method` nor
 * `path` is given; control routes never).
 *
 * - `reset`: the TCP connection is reset (RST) instead of answered: the client sees a network error.
 * - `hang`: no answer; the connection stays open until the client gives up (or the simulator closes).
 * - `delay`: the answer goes out `delayMs` later, on the simulator's clock (with a `manualClock`, when it is
 *   advanced that far).
 * - `gateway`: HTTP 502 with an HTML body, as a proxy in front of a service answers when it lost the service's
 *   answer.
 *
 * @example
 * ```ts
 * import { startSimulator, type LoseAnswersOptions } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const placedButUnanswered: LoseAnswersOptions = { mode: 'reset', method: 'POST', path: '/api/v1/spot/order' };
 * sim.loseNextAnswers(1, placedButUnanswered); // the next order is placed; its answer never arrives
 * sim.loseNextAnswers(2, { mode: 'delay', delayMs: 15_000 }); // replaces it: the next two answers come 15 s late
 * ```
 */
export type LoseAnswersOptions = (
  | { readonly mode: 'reset' }
  | { readonly mode: 'hang' }
  | { readonly mode: 'delay'; /** How late the answer goes out (ms, simulator clock). */ readonly delayMs: number }
  | { readonly mode: 'gateway' }
) & {
  /** Only requests of this method (e.g. 'POST'; any case) lose their answer; default any method. */
  readonly method?: string | undefined;
  /** Only requests of this exact path (without the query, e.g. '/api/v1/spot/order'); default any path. */
  readonly path?: string | undefined;
};
