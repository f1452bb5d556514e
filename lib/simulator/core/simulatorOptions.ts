import type { SimulatorClock } from './clock';
import type { RateLimitOptions } from '../http/rateLimit';
import type { Recording } from '../../testing/recording';
import type { SymbolRulesOptions } from '../market/symbolRules';

/**
 * Push periods (ms) of the public topics. Defaults follow the specification.
 *
 * @example
 * ```ts
 * import { startSimulator, type PeriodsMs } from 'ex-streams/simulator';
 * const periodsMs: Partial<PeriodsMs> = { depth: 100, trade: 100 };
 * const sim = await startSimulator({ periodsMs });
 * ```
 */
export interface PeriodsMs {
  /** kline topics, default 300. */
  readonly kline: number;
  /** realtimes, default 500. */
  readonly realtimes: number;
  /** trade, default 300. */
  readonly trade: number;
  /** depth, default 300. */
  readonly depth: number;
  /** depth and bbo of the V2 stream (`/quote/ws/v2`), default 100 (HashKey's documented period). */
  readonly v2Depth?: number | undefined;
}

/**
 * A recording as the simulator's market (paper fills): the recorded pairs' public topics replay the recorded
 * messages, recorded time `t` at server time `start + (t - t0) / speed` (`t0` the recording's first line, `start`
 * the server time at `startSimulator`), every time inside a message mapped the same way; resting orders fill
 * against the recorded trades (at the order's price, up to each trade's quantity), marketable orders at once
 * against the latest recorded book's levels (the book is not changed). Queue position and market impact are not
 * modelled. See docs/simulator.md, "Paper fills against a recording".
 *
 * @example
 * ```ts
 * import { startSimulator, manualClock } from 'ex-streams/simulator';
 * import { loadRecording } from 'ex-streams/node';
 *
 * const recording = await loadRecording('recordings/2024-06-01');
 * const clock = manualClock(Date.now()); // beside the client's clock: signed requests and event times check out
 * const sim = await startSimulator({ recordedMarket: { recording }, clock });
 * // marketStreams / userStream / placeOrder against sim's urls, as live;
 * clock.advance(60_000); // plays the recording's first minute (its trades fill resting orders) at once
 * ```
 */
export interface RecordedMarketOptions {
  /** The recording (`loadRecording` of `ex-streams/node`, or one built by hand); its public lines are played. */
  readonly recording: Recording;
  /** Recorded ms per simulator ms, default 1 (real time); 10 plays ten times faster. Must be a finite number > 0. */
  readonly speed?: number | undefined;
}

/**
 * Options of {@link startSimulator}. Every field is optional.
 *
 * @example
 * ```ts
 * import { startSimulator, manualClock } from 'ex-streams/simulator';
 * const sim = await startSimulator({ symbols: ['BTCUSDT'], seed: 7, clock: manualClock(0), twoFactor: true });
 * ```
 */
export interface SimulatorOptions {
  /** TCP port, default 0 (ephemeral). */
  readonly port?: number | undefined;
  /**
   * Interface to bind, default '127.0.0.1'. Any host but '127.0.0.1', '::1' and 'localhost' makes the control
   * routes require a token (see `controlToken`).
   */
  readonly host?: string | undefined;
  /**
   * Token the HTTP control routes (`/__control/*`) require, as `X-SIM-CONTROL-TOKEN: <token>` or
   * `Authorization: Bearer <token>`. Default: none on loopback (routes open), a random 48-hex-digit token
   * otherwise (read it from `Simulator.controlToken`; the CLI prints it).
   */
  readonly controlToken?: string | undefined;
  /**
   * Pairs (quote suffix USDT, BTC or ETH), default ['BTCUSDT', 'ETHUSDT'], or with `recordedMarket` the pairs the
   * recording holds data of (those quoted in USDT, BTC or ETH). With `recordedMarket`, a pair listed here that the recording has no data of gets the
   * generated market, and a recorded pair not listed is not served.
   */
  readonly symbols?: readonly string[] | undefined;
  /**
   * Trading rules by pair (tick, step, limits, minimum notional and amount) overriding the defaults of
   * `SymbolRulesOptions`; `exchangeInfo` publishes them and placement enforces them. Default: none. A key that
   * is not in `symbols`, or an invalid rule, makes `startSimulator` throw.
   */
  readonly symbolRules?: Readonly<Record<string, SymbolRulesOptions>> | undefined;
  /** Seed of every random choice (market, listen keys, chaos), default 1. */
  readonly seed?: number | undefined;
  /** API key of the simulated account, default derived from the seed. */
  readonly apiKey?: string | undefined;
  /** Secret key of the simulated account, default derived from the seed. */
  readonly secretKey?: string | undefined;
  /** API-key header name, default 'X-EX-APIKEY'. */
  readonly apiKeyHeader?: string | undefined;
  /** Clock of all timers and validity windows, default the real clock. */
  readonly clock?: SimulatorClock | undefined;
  /** Public push periods, defaults kline 300, realtimes 500, trade 300, depth 300. */
  readonly periodsMs?: Partial<PeriodsMs> | undefined;
  /** Period of the market generator (one step: a mid move and 1–3 trades), default 300; 0 = only `step()`. */
  readonly marketStepMs?: number | undefined;
  /** Depth levels per side in depth messages, default 200 (max 200). */
  readonly depthLevels?: number | undefined;
  /**
   * The container of binary frames (a subscription with `binary: true`): `'zip'` (the spec's: a zip file whose
   * entry holds the JSON) or `'gzip'` (what a probe of the live service saw, `1f 8b`). Default `'zip'`. The
   * library reads either, by its magic bytes.
   */
  readonly binaryContainer?: 'zip' | 'gzip' | undefined;
  /** Starting balances (decimal text by asset), default { USDT: '100000', BTC: '10', ETH: '100' }. */
  readonly balances?: Readonly<Record<string, string>> | undefined;
  /** Two-factor verification enabled for the account, default false. */
  readonly twoFactor?: boolean | undefined;
  /** Validity of a 2FA token, default 30 000 ms. */
  readonly twoFactorTokenTtlMs?: number | undefined;
  /** Listen-key validity, default 3 600 000 ms (60 minutes). */
  readonly listenKeyValidityMs?: number | undefined;
  /** Server ping period on private streams, default 30 000 ms. */
  readonly privatePingIntervalMs?: number | undefined;
  /** Private session close after this long without client ping/pong, default 3 600 000 ms. */
  readonly privateIdleTimeoutMs?: number | undefined;
  /** Put all events of one operation in one private frame (array), default false (one event per frame). */
  readonly batchPrivateEvents?: boolean | undefined;
  /**
   * Report an accepted placement `PENDING_NEW` before its `NEW`, as HashKey does. Default true (the venue's
   * sequence); false gives the SPEC's, `NEW` first, for a test about something else than statuses that counts reports.
   * The placement's HTTP answer is unchanged (a resting order's says `NEW`, the example of HashKey's "Create Order v1.1").
   */
  readonly pendingNew?: boolean | undefined;
  /**
   * Report a cancel request `PENDING_CANCEL` before its `CANCELED` / `PARTIALLY_CANCELED`, as HashKey does (an order
   * that closes by itself, IOC / FOK / MARKET, has none). Default true (the venue's sequence); false as `pendingNew`.
   */
  readonly pendingCancel?: boolean | undefined;
  /** Rate limit of the HTTP API (429 with `Retry-After`, 418 when a client keeps going), default none. */
  readonly rateLimit?: RateLimitOptions | undefined;
  /** Server time offset from the clock at start (ms), default 0; `skewClock(ms)` changes it later. */
  readonly clockSkewMs?: number | undefined;
  /** Record every API request, websocket upgrade URL and client frame for `traffic()`, default false. */
  readonly recordTraffic?: boolean | undefined;
  /**
   * Most public trade ids `sent().trades` keeps per pair (the newest; `count` counts them all), default unbounded.
   * A simulator left running (the CLI: 10 000) would otherwise keep every id it ever pushed (~2 000/s at 300 pairs).
   */
  readonly sentTradeIds?: number | undefined;
  /**
   * A recording as the market of the pairs it holds data of (paper fills), default none (the generated market).
   * Their tick and step default to the most decimals their recorded prices and quantities need (`symbolRules`
   * overrides them). See {@link RecordedMarketOptions}.
   */
  readonly recordedMarket?: RecordedMarketOptions | undefined;
}
