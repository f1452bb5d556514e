import type { ChaosHandle, ChaosOptions, FaultCounts, SentPrivateRecord, TrafficReport } from './chaosTypes';
import type { SimulatorClock } from './clock';

/** Which stream a fault or an observation is about. */
export type StreamKind = 'public' | 'private';

/** Stream selector of the control surface. */
export type StreamSelector = StreamKind | 'all';

/** Push periods (ms) of the public topics. Defaults follow the specification. */
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

/** A `sub` the simulator received. */
export interface ObservedSubscription {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly symbol: string;
  readonly topic: string;
  readonly binary: boolean;
  readonly id: string;
  readonly at: number;
}

/** A `cancel` / `cancel_all` the simulator received. */
export interface ObservedCancel {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly event: string;
  readonly symbol: string;
  readonly topic: string;
  readonly id: string;
  readonly at: number;
}

/** A client ping the simulator received. */
export interface ObservedPing {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly ts: number;
  readonly at: number;
}

/** A client pong the simulator received; `matched` when `ts` equals a ping this session was sent. */
export interface ObservedPong {
  readonly stream: StreamKind;
  readonly connection: number;
  readonly ts: number;
  readonly matched: boolean;
  readonly at: number;
}

/** What the simulator observed from clients. */
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

/** Kinds of private events. */
export type PrivateEventKind = 'executionReport' | 'ticketInfo' | 'outboundAccountInfo';

/** A private event the simulator pushed (once per push, whatever the number of sessions). */
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

/** What the simulator sent. */
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

/** Options of `rejectNextRequests`. */
export interface RejectOptions {
  /** HTTP status, default 429. */
  readonly status?: number;
  /** Body code, default -1003. */
  readonly code?: number;
  /** Body message, default 'Request rejected by fault injection.' */
  readonly msg?: string;
}

/** Options of `privateChaos`. */
export interface PrivateChaosOptions {
  /** Probability that an event is pushed twice, default 0. */
  readonly duplicateProbability?: number;
  /** Each event is delayed by a seeded random time in [0, reorderWindowMs), default 0 (no reordering). */
  readonly reorderWindowMs?: number;
}

/** Options of `injectTrade`. */
export interface InjectTradeOptions {
  readonly symbol: string;
  /** Trade price, decimal text. */
  readonly price: string;
  /** Trade quantity, decimal text, default '1'. */
  readonly quantity?: string;
}

/** The control surface (also served as POST /__control/<name> with a JSON body). */
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
  /** Starts a seeded schedule of random faults on the simulator's clock (see `ChaosOptions`). */
  startChaos(options?: ChaosOptions): ChaosHandle;
  /** What clients sent (empty unless the simulator was started with `recordTraffic: true`). */
  traffic(): TrafficReport;
}

/**
 * A running simulator: addresses, credentials, the control surface and `close()`.
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
