import type { ChaosHandle, ChaosOptions, FaultCounts, SentPrivateRecord, TrafficReport } from './chaosTypes';
import type { SimulatorClock } from './clock';

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
  readonly port?: number;
  /** Interface to bind, default '127.0.0.1'. */
  readonly host?: string;
  /** Pairs (quote suffix USDT, BTC or ETH), default ['BTCUSDT', 'ETHUSDT']. */
  readonly symbols?: readonly string[];
  /** Seed of every random choice (market, listen keys, chaos), default 1. */
  readonly seed?: number;
  /** API key of the simulated account, default derived from the seed. */
  readonly apiKey?: string;
  /** Secret key of the simulated account, default derived from the seed. */
  readonly secretKey?: string;
  /** API-key header name, default 'X-EX-APIKEY'. */
  readonly apiKeyHeader?: string;
  /** Clock of all timers and validity windows, default the real clock. */
  readonly clock?: SimulatorClock;
  /** Public push periods, defaults kline 300, realtimes 500, trade 300, depth 300. */
  readonly periodsMs?: Partial<PeriodsMs>;
  /** Period of the market generator (one step: a mid move and 1–3 trades), default 300; 0 = only `step()`. */
  readonly marketStepMs?: number;
  /** Depth levels per side in depth messages, default 200 (max 200). */
  readonly depthLevels?: number;
  /** Starting balances (decimal text by asset), default { USDT: '100000', BTC: '10', ETH: '100' }. */
  readonly balances?: Readonly<Record<string, string>>;
  /** Two-factor verification enabled for the account, default false. */
  readonly twoFactor?: boolean;
  /** Validity of a 2FA token, default 30 000 ms. */
  readonly twoFactorTokenTtlMs?: number;
  /** Listen-key validity, default 3 600 000 ms (60 minutes). */
  readonly listenKeyValidityMs?: number;
  /** Server ping period on private streams, default 30 000 ms. */
  readonly privatePingIntervalMs?: number;
  /** Private session close after this long without client ping/pong, default 3 600 000 ms. */
  readonly privateIdleTimeoutMs?: number;
  /** Put all events of one operation in one private frame (array), default false (one event per frame). */
  readonly batchPrivateEvents?: boolean;
  /** Record every API request, websocket upgrade URL and client frame for `traffic()`, default false. */
  readonly recordTraffic?: boolean;
}

/**
 * A `sub` the simulator received, in `observed().subscriptions`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedSubscription } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test subscribes
 * const binaryDepth: ObservedSubscription[] = sim.observed().subscriptions.filter((s) => s.topic === 'depth' && s.binary);
 * ```
 */
export interface ObservedSubscription {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly symbol: string;
  readonly topic: string;
  readonly binary: boolean;
  readonly id: string;
  readonly at: number;
}

/**
 * A `cancel` / `cancel_all` the simulator received, in `observed().cancels`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedCancel } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test unsubscribes
 * const cancels: ObservedCancel[] = sim.observed().cancels.filter((c) => c.event === 'cancel' && c.symbol === 'BTCUSDT');
 * ```
 */
export interface ObservedCancel {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly event: string;
  readonly symbol: string;
  readonly topic: string;
  readonly id: string;
  readonly at: number;
}

/**
 * A client ping the simulator received, in `observed().pings`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedPing } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test keeps its connections alive
 * const publicPings: ObservedPing[] = sim.observed().pings.filter((p) => p.stream === 'public');
 * ```
 */
export interface ObservedPing {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly ts: number;
  readonly at: number;
}

/**
 * A client pong the simulator received, in `observed().pongs`; `matched` when `ts` equals a ping this session
 * was sent.
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedPong } from 'ex-streams/simulator';
 * const sim = await startSimulator({ privatePingIntervalMs: 1000 });
 * // ... the client under test answers the private stream's pings
 * const unmatched: ObservedPong[] = sim.observed().pongs.filter((p) => !p.matched);
 * ```
 */
export interface ObservedPong {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly ts: number;
  readonly matched: boolean;
  readonly at: number;
}

/**
 * What the simulator observed from clients, returned by `observed()` (and `GET /__control/observed`).
 *
 * @example
 * ```ts
 * import { startSimulator, type ObservedReport } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... run the client under test
 * const seen: ObservedReport = sim.observed();
 * console.log(`${seen.connections.public} public sockets open, ${seen.accepted.public} accepted since start`);
 * ```
 */
export interface ObservedReport {
  readonly subscriptions: readonly ObservedSubscription[];
  readonly cancels: readonly ObservedCancel[];
  readonly pings: readonly ObservedPing[];
  readonly pongs: readonly ObservedPong[];
  /** Connections open now. */
  readonly connections: { readonly public: number; readonly private: number };
  /** Connections accepted since start. */
  readonly accepted: { readonly public: number; readonly private: number };
}

/**
 * Kinds of private events.
 *
 * @example
 * ```ts
 * import { startSimulator, type PrivateEventKind } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const kind: PrivateEventKind = 'executionReport';
 * const executionReports = sim.sent().privateByKind[kind];
 * ```
 */
export type PrivateEventKind = 'executionReport' | 'ticketInfo' | 'outboundAccountInfo';

/**
 * A private event the simulator pushed, in `sent().privateEvents` (once per push, whatever the number of
 * sessions; a duplicated push appears twice).
 *
 * @example
 * ```ts
 * import { startSimulator, type SentPrivateEvent } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test places orders
 * const fills: SentPrivateEvent[] = sim.sent().privateEvents.filter((e) => e.kind === 'executionReport' && e.status === 'FILLED');
 * ```
 */
export interface SentPrivateEvent {
  readonly kind: PrivateEventKind;
  readonly E: number;
  /** Order id (executionReport), ticket id (ticketInfo), '' (outboundAccountInfo). */
  readonly id: string;
  /** Order status for executionReport. */
  readonly status?: string;
  /** Sessions it was written to. */
  readonly sessions: number;
}

/**
 * What the simulator sent, returned by `sent()` (and `GET /__control/sent`): private events, public trades
 * and messages, fault counters and the log of private pushes.
 *
 * @example
 * ```ts
 * import { startSimulator, type SentReport } from 'ex-streams/simulator';
 * const sim = await startSimulator({ symbols: ['BTCUSDT'] });
 * // ... run the client under test
 * const sent: SentReport = sim.sent();
 * const tradeIds = sent.trades['BTCUSDT']?.ids ?? []; // every public trade the client could have seen
 * console.log(sent.publicMessages, sent.faults.drop, sent.privateLog.length);
 * ```
 */
export interface SentReport {
  readonly privateEvents: readonly SentPrivateEvent[];
  readonly privateByKind: Readonly<Record<PrivateEventKind, number>>;
  /** Public trades delivered at least once, per symbol, ids in order of first delivery. */
  readonly trades: Readonly<Record<string, { readonly count: number; readonly ids: readonly string[] }>>;
  /** Public data messages sent (all connections). */
  readonly publicMessages: number;
  /** Faults injected and their effects, by kind. */
  readonly faults: FaultCounts;
  /** Every private event push with its sequence number, copy, push time and JSON text. */
  readonly privateLog: readonly SentPrivateRecord[];
}

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
  readonly status?: number;
  /** Body code, default -1003. */
  readonly code?: number;
  /** Body message, default 'Request rejected by fault injection.' */
  readonly msg?: string;
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
  readonly duplicateProbability?: number;
  /** Each event is delayed by a seeded random time in [0, reorderWindowMs), default 0 (no reordering). */
  readonly reorderWindowMs?: number;
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
  readonly quantity?: string;
}

/**
 * The control surface: fault injection, market control and reports. Every method but `startChaos` and
 * `traffic` is also served as `POST /__control/<name>` with a JSON body (see docs/simulator.md).
 *
 * @example
 * ```ts
 * import { startSimulator, type SimulatorControl } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const restartService = (control: SimulatorControl): void => {
 *   control.drop({ stream: 'all', code: 1012, reason: 'service restart' });
 *   control.rejectNextRequests(1, { status: 503 });
 * };
 * restartService(sim);
 * ```
 */
export interface SimulatorControl {
  /** Abruptly destroys the stream's sockets (no code) or closes them with `code`. */
  drop(options: { readonly stream: StreamSelector; readonly code?: number; readonly reason?: string }): void;
  /**
   * Keeps sockets open but sends and answers nothing (including protocol pongs) until `resume()`. Client
   * frames received meanwhile are dropped (`inbound: 'drop'`, default: a peer that loses requests) or held and
   * processed at `resume()` (`inbound: 'hold'`: a paused peer whose TCP buffers fill, as in a real stall).
   */
  stall(options: { readonly stream: StreamSelector; readonly inbound?: 'drop' | 'hold' }): void;
  /** Ends every stall. */
  resume(): void;
  /** Sends a raw frame (text for a string, binary for bytes) to every socket of the stream. */
  sendRaw(options: { readonly stream: StreamSelector; readonly data: string | Uint8Array }): void;
  /** Duplicates and reorders private events (seeded). */
  privateChaos(options: PrivateChaosOptions): void;
  /** Expires the active listen key now (its streams close with 4001); false when there is none. */
  expireListenKey(): boolean;
  /** Rejects the next `n` HTTP API requests (control routes excepted). */
  rejectNextRequests(n: number, options?: RejectOptions): void;
  /** Sets the server-time offset (ms) relative to the clock. */
  skewClock(ms: number): void;
  /** Enables or disables 2FA for the account. */
  setTwoFactor(enabled: boolean): void;
  /** Issues a single-use 2FA token valid 30 s. */
  issueTwoFactorToken(): string;
  /** Records a market trade at `price` (moves the market there; resting orders it crosses fill). */
  injectTrade(options: InjectTradeOptions): void;
  /** Runs the market generator `n` steps now (default 1). */
  step(n?: number): void;
  /** What the simulator observed from clients. */
  observed(): ObservedReport;
  /** What the simulator sent. */
  sent(): SentReport;
  /**
   * Starts a seeded schedule of random faults on the simulator's clock (see `ChaosOptions`). Several
   * schedules may run at once; each has its own `stop()`. Not served over HTTP.
   */
  startChaos(options?: ChaosOptions): ChaosHandle;
  /** What clients sent (empty unless the simulator was started with `recordTraffic: true`). Not served over HTTP. */
  traffic(): TrafficReport;
}

/**
 * A running simulator: addresses, credentials, the control surface and `close()`.
 *
 * @example
 * ```ts
 * import { startSimulator, type Simulator } from 'ex-streams/simulator';
 * const sim: Simulator = await startSimulator({ seed: 2 });
 * console.log(sim.baseUrl, sim.publicStreamUrl, `${sim.privateStreamUrl}/<listenKey>`);
 * console.log(sim.serverTime() - sim.clock.now()); // the skew, 0 until skewClock()
 * await sim.close();
 * ```
 */
export interface Simulator extends SimulatorControl {
  /** HTTP base, e.g. http://127.0.0.1:PORT */
  readonly baseUrl: string;
  /** ws://127.0.0.1:PORT/quote/ws/v1 */
  readonly publicStreamUrl: string;
  /** ws://127.0.0.1:PORT/api/v1/ws (append /{listenKey}) */
  readonly privateStreamUrl: string;
  readonly port: number;
  readonly apiKey: string;
  readonly secretKey: string;
  /** The clock the simulator runs on. */
  readonly clock: SimulatorClock;
  /** Server time: clock time plus the skew. */
  serverTime(): number;
  /** The active listen key, if any. */
  activeListenKey(): string | undefined;
  /** Releases every socket and timer. */
  close(): Promise<void>;
}
