import { asyncScheduler, filter, type Observable, ReplaySubject, type SchedulerLike } from 'rxjs';
import type { MarketStreamsConfig } from '../market/marketStreams';
import type { ConnectionConfig } from '../socket/connection';
import type { WebSocketCtor } from '../socket/webSocketLike';
import type { UserStreamConfig } from '../user/userStream';
import { inflateRaw } from '../zip/inflateRaw';
import type { FakeSocketLog, FakeWebSocket } from './fakeWebSocket';
import { ExchangeServer } from './internal/exchangeServer';
import { ExchangeSocket } from './internal/exchangeSocket';
import { ReplayPlayer } from './internal/replayPlayer';
import { RunLimit } from './internal/runLimit';
import type { Recording } from './recording';
import { parseScript } from './internal/script';
import { type ExchangeStream, matchesFilter, type SentFrame, type SentFrameFilter } from './sentFrame';
import { type TestListenKeys, testListenKeys } from './testListenKeys';

/**
 * Configuration of {@link testExchange}. Every field is optional; pass the `TestScheduler` as `scheduler`.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { testExchange } from 'ex-streams/testing';
 * declare const testScheduler: TestScheduler;
 * const exchange = testExchange({ scheduler: testScheduler, openDelayMs: 2, serverTimeOffsetMs: 1500 });
 * ```
 */
export interface TestExchangeConfig {
  /** Virtual clock of the exchange and of the clients it configures. Default `asyncScheduler` (pass the `TestScheduler`). */
  readonly scheduler?: SchedulerLike | undefined;
  /** Time between a socket's construction and its open (the handshake), ms. Default 0: open in the same frame. */
  readonly openDelayMs?: number | undefined;
  /** Answer each public `sub` with `{ id, code: '0', msg: 'Success', event: 'sub', symbol, topic }`. Default `true`. */
  readonly answerSubscriptions?: boolean | undefined;
  /**
   * Answer client pings: public `{ pong: now + serverTimeOffsetMs }`, private `{ pong: <the ping>, channelId }`.
   * Default `true`. Turn it off to script heartbeats yourself.
   */
  readonly answerPings?: boolean | undefined;
  /** Server clock minus the virtual clock, in the public pongs. Default 0. */
  readonly serverTimeOffsetMs?: number | undefined;
  /**
   * A scripted envelope without `id` gets the id of the connection's live subscription of its `(symbol,
   * topic)`, and is zipped when that subscription asked for `binary`, as the service does. Default `true`.
   */
  readonly matchSubscriptions?: boolean | undefined;
  /**
   * How far (virtual ms) a run may go past its last scripted event while clients are still active, before the
   * exchange stops it with a `TestRunLimitError` that names the likely cause: a stream that never completes
   * (no unsubscription marble such as `'^ 1s !'`), which would otherwise spin the `TestScheduler` at full CPU
   * for ever, the client pinging every 10 s. The last scripted event is the latest time queued on the
   * `TestScheduler` when the run starts (unsubscription marbles, hot marbles) or given to the exchange
   * (scripts, `at`, `until`). Default `600_000` (ten virtual minutes, a few ms of real time; longer than any backoff wait or heartbeat); `Infinity` turns
   * the check off. Only a `TestScheduler` (a `VirtualTimeScheduler`) is checked.
   */
  readonly maxFrames?: number | undefined;
  /**
   * Keep every frame clients send, for `sent()` and the sockets' `sent`. Default `true`. `false` keeps none (`sent$()`
   * still shows them as they are sent): a run of days then holds no record per ping (60 480 a week of one socket).
   */
  readonly recordSent?: boolean | undefined;
}

/**
 * Options of a server script ({@link TestExchangeServer}).
 *
 * @example
 * ```ts
 * import { depthEnvelope, type TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-a-#', { a: depthEnvelope() }, { connection: 1, closeWith: { code: 1011 } });
 * ```
 */
export interface ScriptOptions {
  /**
   * Default: hot, the marbles count from now (the start of the run) and each frame goes to every socket of
   * the stream open at that time. A number `n`: the marbles count from the open of connection `n` of the
   * stream (1 = the first socket that opened, i.e. the client's epoch) and go to that socket only. `'each'`:
   * played on every connection from its open (e.g. the snapshot the service sends after each subscription).
   */
  readonly connection?: number | 'each' | undefined;
  /** How `#` closes the socket(s): `code` 1006 (default) is an abrupt drop; any other code a close frame with `reason`. */
  readonly closeWith?: { readonly code?: number | undefined; readonly reason?: string | undefined };
}

/**
 * Plays server frames from marbles, in virtual time (run-mode syntax: 1 character = 1 ms, `500ms`, groups
 * `(ab)`). Values are server messages: objects (sent as JSON; see the builders), strings (raw text), or
 * binary (`Uint8Array`, `ArrayBuffer`). `#` closes the socket(s); `|` only ends the script. A frame whose
 * time finds no open socket is lost, as on a real server. Call it inside `TestScheduler.run`.
 *
 * @example
 * ```ts
 * import { executionReport, privateFrame, type TestExchange, tradeEnvelope, tradeRecord } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.server.public('-a--b-|', { a: tradeEnvelope(tradeRecord({ v: '1' })), b: '{"not":"an envelope"}' });
 * exchange.server.private('--a', { a: privateFrame(executionReport({ E: 2 })) });
 * ```
 */
export interface TestExchangeServer {
  /** Plays frames on the public (market) stream. */
  public(marbles: string, values?: Readonly<Record<string, unknown>>, options?: ScriptOptions): void;
  /** Plays frames on the private (user) stream. */
  private(marbles: string, values?: Readonly<Record<string, unknown>>, options?: ScriptOptions): void;
  /**
   * Plays a recording (or a slice of one: `{ events: recording.events.slice(a, b) }`) from now, each event at
   * `now + (t - t0) / speed` (`t0`: the first event's time), so a marble test runs on real frames. Public frames go
   * to the sockets subscribed to their topic, with the client's request id; a recorded `close` closes the sockets
   * with its code and holds new connections until the next recorded `open` (also when the slice starts with one).
   * See {@link ReplayOptions}; the run's `ended$` emits once the last event was played.
   */
  replay(recording: Recording, options?: ReplayOptions): ReplayRun;
}

/**
 * Options of `exchange.server.replay` ({@link TestExchangeServer.replay}).
 *
 * @example
 * ```ts
 * import type { Recording, TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange, recording: Recording; // in a run
 * exchange.server.replay(recording, { speed: 10 }); // ten recorded seconds per virtual second
 * ```
 */
export interface ReplayOptions {
  /**
   * Recorded time per replayed time: 1 (default) real time, N N× faster, `Infinity` as fast as possible (every event
   * at once, in order; a recorded `open` waits for the client's socket, and the client acts after each `open` and
   * `close` before the next frames are played).
   */
  readonly speed?: number | undefined;
  /** The stream played on. Default: the recording's (`start` line), else `'public'`. */
  readonly stream?: ExchangeStream | undefined;
}

/**
 * A recording being played by `exchange.server.replay`.
 *
 * @example
 * ```ts
 * import type { Recording, TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange, recording: Recording; // in a run
 * exchange.server.replay(recording).ended$.subscribe(() => console.log('the recording is over'));
 * ```
 */
export interface ReplayRun {
  /** Emits once and completes when the last event has been played (replays that at once to late subscribers). */
  readonly ended$: Observable<void>;
  /** The replay time of recorded time `t` (ms). */
  timeOf(t: number): number;
}

/**
 * When and where a fault applies: `stream` (default `'all'`) and `at`, the virtual time in ms from the start
 * of the run (default: now).
 *
 * @example
 * ```ts
 * import type { TestExchange } from 'ex-streams/testing';
 * declare const exchange: TestExchange; // testExchange({ scheduler: testScheduler }) in a run
 * exchange.drop({ stream: 'public', at: 40 });
 * ```
 */
export interface FaultOptions {
  readonly stream?: ExchangeStream | 'all' | undefined;
  readonly at?: number | undefined;
}

/**
 * A scheduler-driven exchange for marble tests; see {@link testExchange}.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { marketStreams, userStream } from 'ex-streams';
 * import { testExchange } from 'ex-streams/testing';
 * declare const testScheduler: TestScheduler;
 * const exchange = testExchange({ scheduler: testScheduler });
 * const market = marketStreams(exchange.marketConfig({ binary: true }));
 * const user = userStream(exchange.userConfig({ reorder: { maxDelayMs: 0 } }));
 * exchange.drop({ stream: 'public', at: 40 });
 * // after flush(): exchange.sent({ kind: 'sub', connection: 2 }) lists the resubscriptions (at 540 ms)
 * ```
 */
export interface TestExchange {
  /** The exchange's sockets: pass as `WebSocketCtor` (the configs below do). */
  readonly WebSocketCtor: WebSocketCtor;
  /** The virtual clock. */
  readonly scheduler: SchedulerLike;
  /** `ws://test.exchange/quote/ws/v1`. Any address whose path is not the private one is public. */
  readonly publicUrl: string;
  /** `ws://test.exchange/api/v1/ws` (the client appends `/{listenKey}`). */
  readonly privateUrl: string;
  /** The listen-key REST fake; invalidating a key closes its private sockets with 4001. */
  readonly listenKeys: TestListenKeys;
  /** Scripts of server frames. */
  readonly server: TestExchangeServer;
  /**
   * A `marketStreams` config wired to the exchange: `url`, `WebSocketCtor`, `scheduler`, reconnect backoff
   * without jitter (each wait is its cap: 500 ms, 1 s, 2 s, …) and the zip inflater of `ex-streams/zip` (so
   * binary subscriptions decode in a browser test runner too), then `overrides`.
   */
  marketConfig(overrides?: Partial<MarketStreamsConfig>): MarketStreamsConfig;
  /** A `userStream` config wired to the exchange (`rest: listenKeys`, same connection settings), then `overrides`. */
  userConfig(overrides?: Partial<UserStreamConfig>): UserStreamConfig;
  /** The frames clients sent so far (matching `filter`), oldest first. */
  sent(filter?: SentFrameFilter): SentFrame[];
  /** The frames clients send from now on (matching `filter`), at their virtual times: hot, for `expectObservable`. */
  sent$(filter?: SentFrameFilter): Observable<SentFrame>;
  /** Closes every socket of the stream: no `code` (or 1006) is an abrupt drop, other codes a close frame. */
  drop(options?: FaultOptions & { readonly code?: number | undefined; readonly reason?: string | undefined }): void;
  /**
   * Refuses connection attempts (closed before open, `code` default 1006): the next `count` attempts, or all
   * attempts until virtual time `until`, whichever ends first. Default: the next attempt.
   */
  refuse(options?: FaultOptions & { readonly until?: number | undefined; readonly count?: number | undefined; readonly code?: number | undefined }): void;
  /**
   * From `at`, the stream goes silent: no frame, no answer, no handshake completes (clients still send, and
   * it is recorded) until `until` or {@link TestExchange.resume}.
   */
  stall(options?: FaultOptions & { readonly until?: number | undefined }): void;
  /** Ends a stall at `at`: pending handshakes complete. */
  resume(options?: FaultOptions): void;
  /** Every socket of the stream so far, oldest first (live array): `url`, `readyState`, `sent`, `closedByClient`. */
  sockets(stream: ExchangeStream): readonly FakeWebSocket[];
  /** Lifetimes of the stream's sockets for `expectSubscriptions(exchange.logs('public')).toBe([...])` (live array). */
  logs(stream: ExchangeStream): FakeSocketLog[];
}

/** Full jitter with `random` just below 1: each backoff wait is exactly its cap. */
const noJitter = (): number => 1 - Number.EPSILON;

type ConnectionOptions = Omit<ConnectionConfig, 'url' | 'scheduler' | 'WebSocketCtor'>;
const deterministic = (options: ConnectionOptions = {}): ConnectionOptions => {
  const inflating = { inflateRaw, ...options };
  return options.reconnect === false ? inflating : { ...inflating, reconnect: { random: noJitter, ...options.reconnect } };
};

const streamsOf = (stream: ExchangeStream | 'all' = 'all'): ExchangeStream[] =>
  stream === 'all' ? ['public', 'private'] : [stream];

/**
 * A scheduler-driven test exchange for marble tests of pipelines built on `marketStreams` and
 * `userStream`: no sockets, no real time.
 *
 * - **Plugs in** through `WebSocketCtor` and `scheduler`: `marketStreams(exchange.marketConfig())`,
 *   `userStream(exchange.userConfig())` (listen keys from {@link TestExchange.listenKeys}).
 * - **Plays** server frames from marbles (`exchange.server.public('-a--b', values)`), hot or per connection.
 * - **Answers** what you do not want to script: `sub` (success response echoing the id) and pings (pong with
 *   the virtual server time); scripted envelopes get the live subscription's id (and zip) automatically.
 * - **Records** every client frame with its virtual time (`sent()`, `sent$()`), and socket lifetimes (`logs()`).
 * - **Fails** on demand: `drop` (1006 or a close code such as 4001), `refuse`, `stall`, key expiry.
 *
 * Create it inside `testScheduler.run(...)`; sockets open `openDelayMs` (0) after construction, so a frame
 * scripted at frame 0 finds no socket (start scripts with `-`). The client keeps pinging every 10 s while
 * subscribed: give `expectObservable` an unsubscription marble (`'^ 1s !'`) so the run ends.
 *
 * @example
 * ```ts
 * import { TestScheduler } from 'rxjs/testing';
 * import { marketStreams } from 'ex-streams';
 * import { depthEnvelope, depthRecord, testExchange } from 'ex-streams/testing';
 *
 * const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
 * testScheduler.run(({ expectObservable }) => {
 *   const exchange = testExchange({ scheduler: testScheduler });
 *   const market = marketStreams(exchange.marketConfig());
 *   const book = depthRecord({ b: [['99', '1']], a: [['101', '1']] });
 *   exchange.server.public('-a', { a: depthEnvelope(book) });
 *   expectObservable(market.depth('BTCUSDT'), '^ 9ms !').toBe('-a', { a: book });
 * });
 * ```
 */
export function testExchange(config: TestExchangeConfig = {}): TestExchange {
  const { scheduler, server, limit, listenKeys, Socket } = wire(config);
  const publicUrl = 'ws://test.exchange/quote/ws/v1';
  const privateUrl = 'ws://test.exchange/api/v1/ws';
  return {
    WebSocketCtor: Socket,
    scheduler,
    publicUrl,
    privateUrl,
    listenKeys,
    server: serverScripts(server, scheduler, limit),
    marketConfig: ({ connection, ...overrides } = {}) => ({
      url: publicUrl,
      WebSocketCtor: Socket,
      scheduler,
      ...overrides,
      connection: deterministic(connection),
    }),
    userConfig: ({ connection, ...overrides } = {}) => ({
      url: privateUrl,
      rest: listenKeys,
      WebSocketCtor: Socket,
      scheduler,
      ...overrides,
      connection: deterministic(connection),
    }),
    sent: (f = {}) => server.frames.filter((s) => matchesFilter(s, f)),
    sent$: (f = {}) => server.sent$.pipe(filter((s) => matchesFilter(s, f))),
    ...serverFaults(server, limit),
    sockets: (stream) => server.sides[stream].sockets,
    logs: (stream) => server.sides[stream].logs,
  };
}

/** The exchange's parts wired together: the server, its run limit and listen keys, and the socket class. */
function wire(config: TestExchangeConfig) {
  const {
    scheduler = asyncScheduler,
    openDelayMs = 0,
    answerSubscriptions = true,
    answerPings = true,
    serverTimeOffsetMs = 0,
    matchSubscriptions = true,
    maxFrames = 600_000,
    recordSent = true,
  } = config;
  const limit = new RunLimit(scheduler, maxFrames, (): string =>
    (['public', 'private'] as const)
      .map((name) => `${name}: ${server.sides[name].sockets.filter((s) => s.readyState !== 3).length} live socket(s), ${server.sides[name].opened} connection(s)`)
      .join('; '),
  );
  const server: ExchangeServer = new ExchangeServer(
    { scheduler, openDelayMs, answerSubscriptions, answerPings, serverTimeOffsetMs, matchSubscriptions, recordSent },
    () => listenKeys,
    limit,
  );
  const listenKeys = testListenKeys({ scheduler, onInvalidated: (key, reason) => server.keyInvalidated(key, reason) });
  class Socket extends ExchangeSocket {
    constructor(url: string) {
      super(url, scheduler, server);
    }
  }
  return { scheduler, server, limit, listenKeys, Socket };
}

/** {@link TestExchange.server}: frames scripted from marbles, hot or per connection, and recordings replayed. */
function serverScripts(server: ExchangeServer, scheduler: SchedulerLike, limit: RunLimit): TestExchangeServer {
  const script =
    (stream: ExchangeStream) =>
    (marbles: string, values?: Readonly<Record<string, unknown>>, options: ScriptOptions = {}): void => {
      const steps = parseScript(marbles, values, options.closeWith ?? {});
      if (options.connection === undefined) {
        limit.extend(scheduler.now() + Math.max(0, ...steps.map((step) => step.frame)));
        server.play(stream, steps);
      } else server.playPerConnection(stream, options.connection, steps);
    };
  return {
    public: script('public'),
    private: script('private'),
    replay: (recording, { speed = 1, stream } = {}) => {
      if (!(speed > 0)) throw new RangeError(`exchange.server.replay: speed must be a positive number (or Infinity), got ${String(speed)}`);
      const ended$ = new ReplaySubject<void>(1);
      const start = recording.events.find((e) => e.k === 'start');
      const player = new ReplayPlayer(server, scheduler, recording.events, {
        stream: stream ?? (start?.k === 'start' ? start.stream : 'public'),
        speed,
        onEnd: () => {
          ended$.next();
          ended$.complete();
        },
      }, limit);
      return { ended$: ended$.asObservable(), timeOf: (t) => player.timeOf(t) };
    },
  };
}

/** The faults of {@link TestExchange}: drops, refusals, stalls and their end, each at a virtual time. */
function serverFaults(server: ExchangeServer, limit: RunLimit): Pick<TestExchange, 'drop' | 'refuse' | 'stall' | 'resume'> {
  return {
    drop: ({ stream, at, code, reason } = {}) =>
      server.at(at, () => {
        for (const name of streamsOf(stream)) {
          for (const socket of [...server.sides[name].sockets]) {
            if (socket.readyState !== 3) server.close(socket, { code, reason });
          }
        }
      }),
    refuse: ({ stream, at, until, count, code = 1006 } = {}) => {
      limit.extend(until);
      server.at(at, () => {
        for (const name of streamsOf(stream)) {
          server.sides[name].refusal = {
            remaining: count ?? (until === undefined ? 1 : Infinity),
            until: until ?? Infinity,
            code,
          };
        }
      });
    },
    stall: ({ stream, at, until } = {}) => {
      server.at(at, () => streamsOf(stream).forEach((name) => server.setStalled(name, true)));
      if (until !== undefined) server.at(until, () => streamsOf(stream).forEach((name) => server.setStalled(name, false)));
    },
    resume: ({ stream, at } = {}) => server.at(at, () => streamsOf(stream).forEach((name) => server.setStalled(name, false))),
  };
}
