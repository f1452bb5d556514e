import type { StreamSelector } from '../streams/streamKind';

/**
 * A kind of fault the seeded chaos schedule injects (see `Simulator.startChaos`):
 * - `drop`: sockets of a stream destroyed abruptly (the client sees 1006);
 * - `close`: sockets of a stream closed with code 1012 (service restart);
 * - `stall`: a stream sends and answers nothing for a while (TCP stays open; client frames are processed
 *   when it ends, as a paused server would read them);
 * - `halfOpen`: the open sockets of one stream forward nothing either way, without a close (a dead NAT), for
 *   `halfOpenMs`, then the server drops them; pushes written meanwhile are lost, so are the client's pings;
 * - `malformed`: a frame that is not JSON / not a usable zip (truncated, corrupt, bomb, invalid UTF-8);
 * - `wrongShape`: valid JSON of the wrong shape (bad records, unknown event types, scalars);
 * - `duplicate`: private frames pushed twice for a while;
 * - `reorder`: private frames delayed by a random time for a while (so they arrive out of order);
 * - `listenKeyExpiry`: the active listen key expires now (its sessions close with 4001);
 * - `rejectRequests`: the next 1–3 API requests are rejected (429 or 503);
 * - `clockSkew`: server time jumps to clock + a random offset (either direction).
 *
 * @example
 * ```ts
 * import { startSimulator, type ChaosFaultKind } from 'ex-streams/simulator';
 * const connectionFaults: ChaosFaultKind[] = ['drop', 'close', 'stall'];
 * const sim = await startSimulator();
 * const chaos = sim.startChaos({ kinds: connectionFaults });
 * ```
 */
export type ChaosFaultKind =
  | 'drop'
  | 'close'
  | 'stall'
  | 'halfOpen'
  | 'malformed'
  | 'wrongShape'
  | 'duplicate'
  | 'reorder'
  | 'listenKeyExpiry'
  | 'rejectRequests'
  | 'clockSkew';

/**
 * Every {@link ChaosFaultKind}, in a fixed order (the default `kinds` of `Simulator.startChaos`).
 *
 * @example
 * ```ts
 * import { CHAOS_FAULT_KINDS, startSimulator } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // every kind but the clock skew
 * const chaos = sim.startChaos({ kinds: CHAOS_FAULT_KINDS.filter((k) => k !== 'clockSkew') });
 * ```
 */
export const CHAOS_FAULT_KINDS: readonly ChaosFaultKind[] = [
  'drop',
  'close',
  'stall',
  'halfOpen',
  'malformed',
  'wrongShape',
  'duplicate',
  'reorder',
  'listenKeyExpiry',
  'rejectRequests',
  'clockSkew',
];

/**
 * Options of `Simulator.startChaos`. Every field is optional.
 *
 * For a seed, the schedule (waits, kinds, streams, payloads, stall lengths, skews) is always the same,
 * whatever the clients do; on a `manualClock` the fault times are too. What a fault finds (open sockets, an
 * active listen key) depends on the clients. `startChaos` throws when `kinds` is empty or `meanIntervalMs` is
 * not positive.
 *
 * @example
 * ```ts
 * import { startSimulator } from 'ex-streams/simulator';
 * const sim = await startSimulator({ seed: 7 });
 * const chaos = sim.startChaos({ meanIntervalMs: 1000, kinds: ['drop', 'stall'] });
 * // ... later
 * chaos.stop();
 * console.log(chaos.injected().map((f) => `${f.at} ${f.kind} ${f.stream}`));
 * ```
 */
export interface ChaosOptions {
  /** Seed of the schedule (times, kinds, streams, payloads). Default: derived from the simulator's seed. */
  readonly seed?: number | undefined;
  /** Mean time between two faults (ms); each wait is uniform in [0.5, 1.5] × this. Default 5000. */
  readonly meanIntervalMs?: number | undefined;
  /**
   * Kinds to inject. Default: all of {@link CHAOS_FAULT_KINDS}. The schedule goes through the kinds in a
   * seeded random order and reshuffles after each round, so every kind is injected once per round.
   */
  readonly kinds?: readonly ChaosFaultKind[] | undefined;
  /** Longest stall (ms); each stall lasts a random time in [maxStallMs / 8, maxStallMs]. Default 4000. */
  readonly maxStallMs?: number | undefined;
  /**
   * How long a `halfOpen` fault keeps sockets black-holed before the server drops them (ms). Make it longer
   * than the client's heartbeat timeout so the client detects it first. Default 40 000 (the client's default
   * heartbeat timeout is 30 000).
   */
  readonly halfOpenMs?: number | undefined;
  /** How long a `duplicate` or `reorder` window lasts (ms). Default 3000. */
  readonly privateChaosWindowMs?: number | undefined;
  /** Probability of a duplicate inside a `duplicate` window. Default 0.5. */
  readonly duplicateProbability?: number | undefined;
  /** Delay bound inside a `reorder` window (ms). Default 150. */
  readonly reorderWindowMs?: number | undefined;
  /** Range of the clock skew (ms); each `clockSkew` sets a random skew in [min, max]. Default [-2000, 2000]. */
  readonly skewRangeMs?: readonly [number, number] | undefined;
}

/**
 * One fault the chaos schedule injected, as listed by `ChaosHandle.injected()`.
 *
 * @example
 * ```ts
 * import { manualClock, startSimulator, type InjectedFault } from 'ex-streams/simulator';
 * const clock = manualClock(0);
 * const sim = await startSimulator({ clock, seed: 3 });
 * const chaos = sim.startChaos({ meanIntervalMs: 1000 });
 * clock.advance(10_000);
 * chaos.stop();
 * const stalls: InjectedFault[] = chaos.injected().filter((f) => f.kind === 'stall');
 * for (const f of stalls) console.log(`${f.stream} stalled ${f.endsAt - f.at} ms (${f.sockets} sockets)`);
 * await sim.close();
 * ```
 */
export interface InjectedFault {
  readonly kind: ChaosFaultKind;
  /** Clock time (ms) at which it started. */
  readonly at: number;
  /** Clock time (ms) at which it ended (`at` for instantaneous faults; the stall or window end otherwise). */
  readonly endsAt: number;
  /** Stream it hit (`http` for rejected requests and clock skew, which also moves stream timestamps). */
  readonly stream: StreamSelector | 'http';
  /** A short description (payload name, close code, skew, number of rejected requests). */
  readonly detail: string;
  /** Websockets of the stream(s) it hit that were open when it started (0 for `http`). */
  readonly sockets: number;
}

/**
 * A running chaos schedule, returned by `Simulator.startChaos`.
 *
 * @example
 * ```ts
 * import { startSimulator, type ChaosHandle } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * const chaos: ChaosHandle = sim.startChaos({ seed: 42 });
 * // ... run the client under test for a while, then:
 * chaos.stop();
 * console.log(`${chaos.injected().length} faults injected`);
 * await sim.close();
 * ```
 */
export interface ChaosHandle {
  /**
   * Stops injecting; ends a stall or a duplicate/reorder window in progress (the clock skew stays). Once
   * the schedule has stalled a stream, this calls `resume()` (ending every stall) and, once it has opened a
   * window, `privateChaos({ duplicateProbability: 0, reorderWindowMs: 0 })`. Calling it again does nothing.
   */
  stop(): void;
  /** Faults injected so far, in order. */
  injected(): readonly InjectedFault[];
}

/**
 * Counters of the faults the simulator injected (through the control surface or the chaos schedule) and of
 * their effects, in `sent().faults`.
 *
 * @example
 * ```ts
 * import { startSimulator, type FaultCounts } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * sim.privateChaos({ duplicateProbability: 1 });
 * // ... the client under test places orders
 * const faults: FaultCounts = sim.sent().faults;
 * console.log(`${faults.duplicatedPrivateFrames} private frames sent twice`);
 * ```
 */
export interface FaultCounts {
  /** `drop()` calls without a code (abrupt). */
  readonly drop: number;
  /** `drop()` calls with a close code. */
  readonly close: number;
  /** `stall()` calls. */
  readonly stall: number;
  /** `halfOpen()` calls. */
  readonly halfOpen: number;
  /** `sendRaw()` calls (malformed or wrong-shaped frames). */
  readonly rawFrame: number;
  /** `privateChaos()` calls that turned duplication or reordering on. */
  readonly privateChaos: number;
  /** `expireListenKey()` calls that expired a key. */
  readonly listenKeyExpiry: number;
  /** API requests rejected by injection. */
  readonly rejectedRequests: number;
  /** API answers lost, or delayed, after the request was processed (`loseNextAnswers`). */
  readonly lostAnswers: number;
  /** `skewClock()` calls. */
  readonly clockSkew: number;
  /** Private frames actually pushed twice. */
  readonly duplicatedPrivateFrames: number;
  /** Private frames actually delayed. */
  readonly delayedPrivateFrames: number;
}

/**
 * One private event push, in `sent().privateLog` (a duplicate copy is its own record with the same `seq`).
 *
 * Records are in delivery order (a delayed push is recorded when it goes out), one per event (a batched frame
 * gives one record per event it holds). `sessions: 0` means nobody received it.
 *
 * @example
 * ```ts
 * import { startSimulator, type SentPrivateRecord } from 'ex-streams/simulator';
 * const sim = await startSimulator();
 * // ... the client under test places orders
 * const delivered: SentPrivateRecord[] = sim.sent().privateLog.filter((r) => r.copy === 0 && r.sessions > 0);
 * const expectedEvents = delivered.map((r) => JSON.parse(r.text) as unknown); // what the client should see, once each
 * ```
 */
export interface SentPrivateRecord {
  /** Number of the event (1, 2, …), shared by the copies of a duplicated push. */
  readonly seq: number;
  /** 0 for the first push, 1 for the duplicate. */
  readonly copy: number;
  /** The event's kind (`other`: one pushed by `pushPrivateEvent`). */
  readonly kind: 'executionReport' | 'ticketInfo' | 'outboundAccountInfo' | 'other';
  /** Event time written in the event. */
  readonly E: number;
  /** Clock time of the push. */
  readonly at: number;
  /** Sessions it was written to. */
  readonly sessions: number;
  /** The event's JSON object text, as sent. */
  readonly text: string;
}

/**
 * Traffic the simulator received, recorded with `recordTraffic: true` (see `Simulator.traffic()`).
 *
 * @example
 * ```ts
 * import { startSimulator, type TrafficReport } from 'ex-streams/simulator';
 * const sim = await startSimulator({ recordTraffic: true });
 * // ... run the client under test
 * const traffic: TrafficReport = sim.traffic();
 * const leaked = traffic.requests.some((r) => r.url.includes(sim.secretKey) || r.body.includes(sim.secretKey));
 * ```
 */
export interface TrafficReport {
  /** HTTP API requests (control routes excepted): method, full URL (path and query), headers, body. */
  readonly requests: ReadonlyArray<{
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    readonly body: string;
  }>;
  /** Websocket upgrade URLs (private ones carry the listen key in the path, as the specification wants). */
  readonly upgrades: readonly string[];
  /** Every websocket frame received from clients (text; binary frames as base64). */
  readonly frames: ReadonlyArray<{ readonly stream: 'public' | 'private'; readonly data: string }>;
}
